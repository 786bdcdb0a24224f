// The Devil's Grip page's model, pure: the game as the server last answered it
// (POST/GET /api/grip: {id, number, state, legal, par, hint, can_undo, ...}), what the
// board shows (the game, or a step of a certified solution being replayed), and the
// words for cells, hints and solution steps. `t` is the translation function, passed in.

/** @typedef {import('./grip-rules.js').Action} Action */
/** @typedef {import('./grip-rules.js').Card} Card */
/** @typedef {import('./grip-rules.js').Rating} Rating */
/** @typedef {import('../common/i18n.js').Translate} Translate */

/**
 * What the browser may see of a position (Python `GripState.view()`): the stock's size,
 * not its order; the talon's top three cards.
 * @typedef {{
 *   grid: Card[][],
 *   stock: number,
 *   talon: Card[],
 *   talon_count: number,
 *   passes_allowed: number | null,
 *   passes_used: number,
 *   can_redeal: boolean,
 *   score: number,
 *   rating: Rating | null,
 *   ended: boolean,
 *   over: boolean,
 *   won: boolean,
 * }} GripView
 */

/**
 * Why a hint helps (the server's `GripHintReason`): a kind and the cards it names.
 * @typedef {{
 *   kind: 'deal' | 'redeal' | 'talon' | 'whole' | 'part' | 'swap',
 *   card?: Card,
 *   onto?: Card,
 *   chain?: number,
 *   refill?: 'stock' | 'talon',
 *   under?: Card,
 * }} GripHintReason
 */

/**
 * The last hint asked for a position (`GripHintInfo`).
 * @typedef {{ action: Action | null, expected_score: number, complete: boolean, why: GripHintReason | null }} GripHintInfo
 */

/**
 * Why a finished deal is over, in counts (`GripEndExplanation`).
 * @typedef {{
 *   by: 'won' | 'rule' | 'player',
 *   open_piles: number,
 *   whole_moves: number,
 *   showable: number,
 *   showable_fit: number,
 *   stock: number,
 *   talon: number,
 *   redeal: boolean,
 * }} GripEndExplanation
 */

/**
 * A game as the server answers it (`GripGameAnswer`, POST/GET /api/grip).
 * @typedef {{
 *   id: string,
 *   number: number | null,
 *   state: GripView,
 *   legal: Action[],
 *   can_undo: boolean,
 *   can_redo: boolean,
 *   used_undo: boolean,
 *   used_hint: boolean,
 *   winnable: boolean,
 *   par: number | null,
 *   hint: Action | null,
 *   hint_info: GripHintInfo | null,
 *   explain: GripEndExplanation | null,
 *   token?: string,
 * }} GripAnswer
 */

/**
 * A game as the page keeps it when it plays with its own rules (`GripSyncAnswer`, GET
 * /api/grip/{id}/sync and POST …/moves): no legal list, the operation count `seq`, and
 * the record (`actions`, `redo` next first, `number`, `passes`).
 * @typedef {Omit<GripAnswer, 'legal'> & { seq: number, passes: number | null, actions: Action[], redo: Action[] }} GripSyncAnswer
 */

/** @typedef {{ number: number, passes: number | null, par: number }} GripParAnswer */
/** @typedef {{ action: Action, state: GripView }} GripSolutionStep */
/** @typedef {{ number: number, initial: GripView, steps: GripSolutionStep[] }} GripSolution */

/**
 * A certified solution being stepped through (grip-replay.js): `i` steps done, `timer`
 * while it plays.
 * @typedef {{ initial: GripView, steps: GripSolutionStep[], i: number, timer: ReturnType<typeof setInterval> | null }} SolutionReplay
 */

/**
 * What the sync line says (page/grip-session.js, grip-reconcile.js): offline (the server unreachable),
 * refused (the server's game replaced the page's, with the reason), lost (the server no
 * longer has the game, with the reason).
 * @typedef {{ kind: 'offline' } | { kind: 'refused' | 'lost', reason: string }} SyncNote
 */

/**
 * The page's `view`, what every panel is drawn from (page/grip-session.js `screen`, drawn by page/grip-view.js).
 * @typedef {{
 *   game: GripAnswer | null,
 *   state: GripView | null,
 *   legal: readonly Action[],
 *   busy: boolean,
 *   replay: SolutionReplay | null,
 *   moved: Action | null,
 *   finished: boolean,
 *   hint: Action | null,
 *   isDaily: boolean,
 *   parFailed: boolean,
 *   loadError: string,
 *   hintAsked: boolean,
 *   finishLine: boolean,
 *   finishing: boolean,
 *   online: boolean,
 *   verified: boolean,
 *   sync: SyncNote | null,
 * }} GripPageView
 */

export const COLS = 8;
export const CELLS = 24;

// A new answer replaces the game; a par already known for the same game is kept (the
// answers to moves do not repeat it).
/**
 * @template {GripAnswer} A
 * @param {GripAnswer | null} game
 * @param {A} answer
 * @returns {A}
 */
export function adopt(game, answer) {
  if (game && answer.id === game.id && answer.par === null && game.par !== null) return { ...answer, par: game.par };
  return answer;
}

// The state on the board: the replay's current step while a solution is shown.
/**
 * @param {GripAnswer | null} game
 * @param {SolutionReplay | null} replay
 * @returns {GripView | null}
 */
export function shownState(game, replay) {
  if (replay) return replay.i === 0 ? replay.initial : replay.steps[replay.i - 1].state;
  return game ? game.state : null;
}

/**
 * @param {GripAnswer | null} game
 * @param {SolutionReplay | null} replay
 * @returns {boolean}
 */
export function isFinished(game, replay) {
  const s = shownState(game, replay);
  return Boolean(replay || (s && (s.ended || s.over)));
}

// The game's result for the statistics, once it is over (null before).
/**
 * @param {GripAnswer | null} game
 * @returns {import('./grip-stats.js').GripResult | null}
 */
export function resultOf(game) {
  if (!game || !(game.state.ended || game.state.over)) return null;
  const s = game.state;
  return { id: game.id, passes: s.passes_allowed ?? null, score: s.score, won: Boolean(s.won),
    assisted: Boolean(game.used_undo || game.used_hint), par: game.par };
}

// Whether the hint is about the stock, the talon, or a cell as its source or target.
/**
 * @param {Action | null | undefined} hint
 * @param {'stock' | 'talon' | 'src' | 'dst'} kind
 * @param {number} [value] the cell, for 'src' and 'dst'
 * @returns {boolean}
 */
export function hintTouches(hint, kind, value) {
  if (!hint) return false;
  if (kind === 'stock') return hint.type === 'deal' || hint.type === 'redeal';
  if (kind === 'talon') return hint.type === 'talon';
  if (kind === 'src') return (hint.type === 'move' && hint.src === value) || (hint.type === 'swap' && hint.a === value);
  if (kind === 'dst') return ((hint.type === 'move' || hint.type === 'talon') && hint.dst === value) || (hint.type === 'swap' && hint.b === value);
  return false;
}

/**
 * @param {number} c
 * @param {Translate} t
 * @returns {string}
 */
export function cellName(c, t) {
  return t('grip.cell', { row: Math.floor(c / COLS) + 1, col: (c % COLS) + 1 });
}

// An action in words: as a hint ('grip.hintMove': "Move …") or as a step of a solution
// ('grip.stepMove').
/**
 * @param {Action} a
 * @param {Translate} t
 * @param {string} prefix
 * @returns {string}
 */
export function actionText(a, t, prefix) {
  switch (a.type) {
    case 'deal': return t(`${prefix}Deal`);
    case 'redeal': return t(`${prefix}Redeal`);
    case 'talon': return t(`${prefix}Talon`, { cell: cellName(a.dst, t) });
    case 'move': return t(`${prefix}Move`, { from: cellName(a.src, t), to: cellName(a.dst, t) });
    case 'swap': return t(`${prefix}Swap`, { from: cellName(a.a, t), to: cellName(a.b, t) });
    default: return '';
  }
}

/** @type {(a: Action, t: Translate) => string} */
export const hintText = (a, t) => actionText(a, t, 'grip.hint');
/** @type {(a: Action, t: Translate) => string} */
export const stepText = (a, t) => actionText(a, t, 'grip.step');

// The score's rating ('rating.good' …) in words; the server's word when the page has none.
/**
 * @param {{ rating?: string | null }} s
 * @param {Translate} t
 * @returns {string}
 */
export function ratingText(s, t) {
  if (s.rating === null || s.rating === undefined) return '';
  const key = `rating.${String(s.rating).toLowerCase()}`;
  const text = t(key);
  return text === key ? String(s.rating) : text;
}

/** @param {number | null} x */
export function fmtAvg(x) { return x === null ? '—' : x.toFixed(1); }
/** @param {number | null} x */
export function fmtVsPar(x) { return x === null ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)}`; }
