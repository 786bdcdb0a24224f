// The first-round guide's model, pure (no DOM): when the guide shows, which step it is
// at, what it points at, and the sentence that says why. The move and its reason come
// from the server (a Devil's Grip hint's `hint_info.why`, a Demon `coach` answer); this
// module only follows them and words them: it knows no rule of either game.
//
// A guide is a plain object {game, phase, step, advice}; every function returns a new
// one. Phases: 'intro' (a word of welcome and "Show me"), 'ask' (waiting for the
// server), 'point' (pointing at a move), 'done' (a last word), 'off' (gone).

/** @typedef {import('../common/i18n.js').Translate} Translate */
/** @typedef {import('../grip/grip-rules.js').Action} GripAction */
/** @typedef {import('../grip/grip-model.js').GripHintReason} GripHintReason */

/**
 * A Demon action as the coach and the legal list carry it (docs/protocol.md).
 * @typedef {{ type: string, src?: 'waste' | number, dst?: number, count?: number, pile?: number | null }} DemonActionLike
 */

/**
 * Why the Demon coach advises a move (the server's `coach` answer).
 * @typedef {{ kind: string, card?: string, onto?: string, under?: string, uncover?: boolean }} DemonWhy
 */

/**
 * The server's advice: a move to point at, or (no action) only a reason to show.
 * @typedef {{ action?: GripAction | DemonActionLike | null, why?: GripHintReason | DemonWhy | null }} Advice
 */

/** @typedef {'grip' | 'demon'} GuideGame */
/** @typedef {'intro' | 'ask' | 'point' | 'done' | 'off'} GuidePhase */
/** @typedef {{ game: GuideGame, phase: GuidePhase, step: number, advice: Advice | null }} Guide */

/** {src, dst}: CSS selectors of what to point at, from and to. @typedef {{ src: string | null, dst: string | null }} Marks */

export const STEPS = { grip: 4, demon: 5 }; // moves the guide points at before it lets go

/**
 * @param {GuideGame} game
 * @returns {Guide}
 */
export function newGuide(game) {
  return { game, phase: 'intro', step: 0, advice: null };
}

/** @type {(g: Guide | null) => g is Guide & { phase: Exclude<GuidePhase, 'off'> }} */
export const isOn = (g) => Boolean(g) && /** @type {Guide} */ (g).phase !== 'off';

// "Show me" (or asking again after a move): the guide waits for the server's advice.
/**
 * @template {Guide | null} G
 * @param {G} g
 * @returns {G}
 */
export function ask(g) {
  return isOn(g) && g.phase !== 'done' ? { ...g, phase: 'ask', advice: null } : g;
}

// The server's advice {action, why}: a move to point at, or (action null) only a
// reason to show, such as "vote to end the round"; no advice at all ends the guide.
/**
 * @template {Guide | null} G
 * @param {G} g
 * @param {Advice | null} advice
 * @returns {G}
 */
export function advise(g, advice) {
  if (!g || g.phase !== 'ask') return g;
  const useful = Boolean(advice && (advice.action || advice.why));
  return { ...g, phase: useful ? 'point' : 'done', advice: useful ? advice : null };
}

// The player made a move (the one pointed at or another): one step further; after the
// last one the guide says its last word instead of asking again.
/**
 * @template {Guide | null} G
 * @param {G} g
 * @returns {G}
 */
export function moved(g) {
  if (!g || (g.phase !== 'point' && g.phase !== 'ask')) return g;
  const step = g.step + 1;
  return step >= STEPS[g.game] ? { ...g, step, phase: 'done', advice: null } : { ...g, step, phase: 'ask', advice: null };
}

/**
 * @template {Guide | null} G
 * @param {G} g
 * @returns {G}
 */
export function finish(g) {
  return g ? { ...g, phase: 'off', advice: null } : g;
}

// Whether an action is in the legal list the server sent (the same keys and values).
/**
 * @param {object | null | undefined} a
 * @param {object | null | undefined} b
 * @returns {boolean}
 */
export function sameAction(a, b) {
  if (!a || !b) return false;
  const x = /** @type {Record<string, unknown>} */ (a);
  const y = /** @type {Record<string, unknown>} */ (b);
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if ((x[k] ?? null) !== (y[k] ?? null)) return false;
  return true;
}

/**
 * @param {object | null | undefined} action
 * @param {readonly object[] | null | undefined} legal
 * @returns {boolean}
 */
export function isLegal(action, legal) {
  return Boolean(action) && (legal || []).some((a) => sameAction(a, action));
}

// ---- what to point at: selectors of the page's own marks (data-target, data-pick) ----

// Devil's Grip: {src, dst} CSS selectors for a hinted action.
/**
 * @param {GripAction | null | undefined} action
 * @returns {Marks}
 */
export function gripMarks(action) {
  if (!action) return { src: null, dst: null };
  /** @param {number} c */
  const cell = (c) => `[data-target="c:${c}"]`;
  switch (action.type) {
    case 'deal': case 'redeal': return { src: '#grip-stock', dst: null };
    case 'talon': return { src: '#grip-talon', dst: cell(action.dst) };
    case 'move': return { src: cell(action.src), dst: cell(action.dst) };
    case 'swap': return { src: cell(action.a), dst: cell(action.b) };
    default: return { src: null, dst: null };
  }
}

// Demon: {src, dst} selectors for an advised action, given the seat's own view
// ({tableau: [{down, up}], waste}): the run's first card, and the pile it goes to; with
// no action, the vote button when the reason is that nothing helps any more.
/**
 * @param {DemonActionLike | null | undefined} action
 * @param {{ tableau?: { up: unknown[] }[] } | null | undefined} me
 * @param {{ kind: string } | null} [why]
 * @returns {Marks}
 */
export function demonMarks(action, me, why = null) {
  if (!action) return { src: why && why.kind === 'stuck' ? '#vote-end' : null, dst: null };
  if (action.type === 'draw' || action.type === 'recycle') return { src: '#stock', dst: null };
  /** @type {string | null} */
  let src = null;
  // a tableau pile's index, or undefined (no such pile: nothing to point at)
  const pile = /** @type {number} */ (action.src);
  if (action.src === 'waste') src = '[data-pick="w"]';
  else if (me && me.tableau && me.tableau[pile]) {
    const up = me.tableau[pile].up.length;
    src = `[data-pick="t:${action.src}:${up - (action.count || 1)}"]`;
  }
  const dst = action.type === 'foundation' ? `[data-target="f:${action.pile}"]` : `[data-target="t:${action.dst}"]`;
  return { src, dst };
}

// ---- why, in words. `t` translates; `card` names a card ("5♠"); `rank` labels a rank
// as the page shows it (for the chains) --------------------------------------------------

const CHAINS = [['2', '5', '8', 'J'], ['3', '6', '9', 'Q'], ['4', '7', 'T', 'K']];

/**
 * @param {number | undefined} chain
 * @param {(rank: string) => string} rank
 * @returns {string}
 */
export function chainText(chain, rank) {
  return (CHAINS[/** @type {number} */ (chain)] || []).map(rank).join('-');
}

/**
 * @param {GripHintReason | null | undefined} why
 * @param {Translate} t
 * @param {(card: string) => string} card
 * @param {(rank: string) => string} rank
 * @returns {string}
 */
export function gripWhy(why, t, card, rank) {
  if (!why) return t('guide.noMove');
  const vars = { card: why.card ? card(why.card) : '', onto: why.onto ? card(why.onto) : '',
    chain: chainText(why.chain, rank), under: why.under ? card(why.under) : '' };
  switch (why.kind) {
    case 'talon': return t('guide.grip.talon', vars);
    case 'whole': return t(why.refill === 'talon' ? 'guide.grip.wholeTalon' : 'guide.grip.whole', vars);
    case 'part': return t('guide.grip.part', vars);
    case 'swap': return t('guide.grip.swap', vars);
    case 'deal': return t('guide.grip.deal');
    case 'redeal': return t('guide.grip.redeal');
    default: return t('guide.noMove');
  }
}

/**
 * @param {DemonWhy | null | undefined} why
 * @param {Translate} t
 * @param {(card: string) => string} card
 * @returns {string}
 */
export function demonWhy(why, t, card) {
  if (!why) return t('guide.noMove');
  const vars = { card: why.card ? card(why.card) : '', onto: why.onto ? card(why.onto) : '',
    under: why.under ? card(why.under) : '' };
  switch (why.kind) {
    case 'ace': return t('guide.demon.ace', vars);
    case 'home':
      if (why.uncover) return t('guide.demon.homeUp', vars);
      return t(why.onto ? 'guide.demon.homeOnto' : 'guide.demon.home', vars);
    case 'uncover': return t(why.onto ? 'guide.demon.uncover' : 'guide.demon.uncoverKing', vars);
    case 'waste': return t(why.onto ? 'guide.demon.waste' : 'guide.demon.wasteKing', vars);
    case 'free': return t('guide.demon.free', vars);
    case 'empty': return t('guide.demon.empty', vars);
    case 'draw': return t('guide.demon.draw');
    case 'recycle': return t('guide.demon.recycle');
    case 'stuck': return t('guide.demon.stuck');
    default: return t('guide.demon.wait');
  }
}

// ---- when the Demon coach is offered ----------------------------------------------------

// A practice round: the player holds a seat and every other seated player is a bot (the
// server checks the same before it answers `coach`); never the daily race (`daily`), whose
// racers compare scores (docs/daily.md).
/**
 * @param {{ players?: { seat?: number | null, bot?: unknown }[], daily?: string } | null | undefined} state
 * @param {number | null | undefined} seat
 * @returns {boolean}
 */
export function isPracticeTable(state, seat) {
  if (!state || state.daily || seat === null || seat === undefined || !Array.isArray(state.players)) return false;
  const seated = state.players.filter((p) => p.seat !== null && p.seat !== undefined);
  return seated.some((p) => p.seat === seat && !p.bot) && seated.every((p) => p.seat === seat || p.bot);
}
