// A Devil's Grip game kept by the page itself, pure: its history (the states,
// the actions, the redo stack, whether undo was used), built with grip-rules.js, and the
// views of it the page draws, shaped as the server's answers are. Every move is played
// here first, in the same frame as the input; the server replays the same operations
// later (grip-link.js) and stays the authority.
//
// A game is a plain object: {number, passes, states, actions, redo, usedUndo}; `play`
// returns a new one and never changes the one it was given (the states are frozen and
// shared). `redo` holds the undone actions, the next one to redo last (as the Python
// `GripGame` keeps them).

import { apply, deal, deriveSeed, isOver, legalActions, rating, score, won, canRedeal, DRAW, IllegalAction } from './grip-rules.js';

/** @typedef {import('./grip-rules.js').GripState} GripState */
/** @typedef {import('./grip-rules.js').Action} Action */
/** @typedef {import('./grip-model.js').GripView} GripView */
/** @typedef {import('./grip-model.js').GripAnswer} GripAnswer */

/**
 * A game: the states from the deal on, the actions between them, the undone actions
 * (the next to redo last), whether undo was used. Frozen.
 * @typedef {Readonly<{
 *   number: number,
 *   passes: number | null,
 *   states: readonly GripState[],
 *   actions: readonly Action[],
 *   redo: readonly Action[],
 *   usedUndo: boolean,
 * }>} LocalGame
 */

/**
 * An operation, as the server's batch endpoint takes it.
 * @typedef {{ op: 'action', action: Action } | { op: 'undo' } | { op: 'redo' } | { op: 'end' }} GripOp
 */

/**
 * The record the server keeps of a game (`redo` next first).
 * @typedef {{ number: number, passes: number | null, actions: readonly Action[], redo: readonly Action[], used_undo: boolean }} GripRecord
 */

/**
 * A new deal, nothing played.
 * @param {number} number
 * @param {number | null} passes
 * @returns {LocalGame}
 */
export function newGame(number, passes) {
  return Object.freeze({ number, passes, states: [deal(number, passes)], actions: [], redo: [], usedUndo: false });
}

/** A game rebuilt from a record as the server sends it (`actions`, `redo` next first,
 *  `used_undo`); throws IllegalAction when it does not replay. */
/**
 * @param {{ number: number, passes: number | null, actions: readonly Action[], redo: readonly Action[], used_undo?: boolean }} record
 * @returns {LocalGame}
 */
export function fromRecord({ number, passes, actions, redo, used_undo: usedUndo }) {
  let game = newGame(number, passes);
  for (const action of actions) game = play(game, { op: 'action', action });
  let trial = current(game);
  for (const action of redo) trial = apply(trial, action); // the redo stack must replay too
  return Object.freeze({ ...game, redo: [...redo].reverse(), usedUndo: Boolean(usedUndo) });
}

/**
 * @param {LocalGame} game
 * @returns {GripState}
 */
export function current(game) {
  return game.states[game.states.length - 1];
}

/** One operation ({op: 'action', action} | {op: 'undo'} | {op: 'redo'} | {op: 'end'}),
 *  as the server's batch endpoint takes it; throws IllegalAction (nothing changed). */
/**
 * @param {LocalGame} game
 * @param {GripOp} op
 * @returns {LocalGame}
 */
export function play(game, op) {
  const { states, actions, redo } = game;
  switch (op.op) {
    case 'action':
    case 'end': {
      /** @type {Action} */
      const action = op.op === 'end' ? { type: 'end' } : op.action;
      const next = apply(current(game), action);
      return Object.freeze({ ...game, states: [...states, next], actions: [...actions, action], redo: [] });
    }
    case 'undo':
      if (!actions.length) throw new IllegalAction('nothing to undo');
      return Object.freeze({ ...game, states: states.slice(0, -1), actions: actions.slice(0, -1),
        redo: [...redo, actions[actions.length - 1]], usedUndo: true });
    case 'redo': {
      if (!redo.length) throw new IllegalAction('nothing to redo');
      const action = redo[redo.length - 1];
      const next = apply(current(game), action);
      return Object.freeze({ ...game, states: [...states, next], actions: [...actions, action], redo: redo.slice(0, -1) });
    }
    default:
      // an operation from outside the types (a stored batch, a test) lands here
      throw new IllegalAction(`unknown operation ${String(/** @type {{ op: unknown }} */ (op).op)}`);
  }
}

/** The record the server keeps of a game, in its key order. */
/**
 * @param {LocalGame} game
 * @returns {GripRecord}
 */
export function recordOf(game) {
  return { number: game.number, passes: game.passes, actions: game.actions,
    redo: [...game.redo].reverse(), used_undo: game.usedUndo };
}

/** Whether two records are the same game. */
/**
 * @param {GripRecord} a
 * @param {GripRecord} b
 * @returns {boolean}
 */
export function sameRecord(a, b) {
  return a.number === b.number && a.passes === b.passes && a.used_undo === b.used_undo
    && JSON.stringify(a.actions) === JSON.stringify(b.actions) && JSON.stringify(a.redo) === JSON.stringify(b.redo);
}

/** What the browser may see of a state, exactly the Python `GripState.view()` (same
 *  keys, same order): no stock order, the talon's top three. */
/**
 * @param {GripState} state
 * @returns {GripView}
 */
export function viewOf(state) {
  const s = score(state);
  return {
    grid: state.grid.map((p) => [...p]),
    stock: state.stock.length,
    talon: state.talon.slice(-DRAW),
    talon_count: state.talon.length,
    passes_allowed: state.passes_allowed,
    passes_used: state.passes_used,
    can_redeal: canRedeal(state),
    score: s,
    rating: rating(s),
    ended: state.ended,
    over: isOver(state),
    won: won(state),
  };
}

/** The game as the page draws it: the server's answer's shape (grip-model.js), from the
 *  local game and what only the server knows (`meta`: id, par, hint, explain, ...). */
/**
 * @param {LocalGame} game
 * @param {Partial<Omit<GripAnswer, 'id'>> & { id: string }} meta
 * @returns {GripAnswer}
 */
export function answerOf(game, meta) {
  const state = current(game);
  return {
    id: meta.id,
    number: game.number,
    state: viewOf(state),
    legal: legalActions(state),
    can_undo: game.actions.length > 0,
    can_redo: game.redo.length > 0,
    used_undo: game.usedUndo,
    used_hint: Boolean(meta.used_hint),
    winnable: Boolean(meta.winnable),
    par: meta.par ?? null,
    hint: meta.hint ?? null,
    hint_info: meta.hint_info ?? null,
    explain: meta.explain ?? null,
  };
}

// The daily deal: the number the Python `daily_deal_number` gives a calendar date (UTC),
// so a daily deal started offline is the server's daily deal.
const DAILY_TAG = 0x44474441494c59n; // "DGDAILY"
const ORDINAL_OF_1970_01_01 = 719163; // Python's date(1970, 1, 1).toordinal()

/**
 * @param {number} year
 * @param {number} month 1 .. 12
 * @param {number} day
 * @returns {number}
 */
export function dailyDealNumber(year, month, day) {
  const ordinal = Math.round(Date.UTC(year, month - 1, day) / 86400000) + ORDINAL_OF_1970_01_01;
  return Number(1n + deriveSeed(DAILY_TAG, ordinal) % 999999999n);
}

/**
 * Today's daily deal (UTC), as the server computes it.
 * @param {Date} [now]
 * @returns {number}
 */
export function todaysDailyNumber(now = new Date()) {
  return dailyDealNumber(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate());
}

/**
 * A random deal number, 1 .. 1,000,000,000 (as the server draws one).
 * @param {(array: Uint32Array) => Uint32Array} [randomValues]
 * @returns {number}
 */
export function randomDealNumber(randomValues = (a) => globalThis.crypto.getRandomValues(a)) {
  const [x] = randomValues(new Uint32Array(1));
  return (x % 1000000000) + 1;
}
