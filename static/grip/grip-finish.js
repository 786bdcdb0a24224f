// Auto-finish: whether the deal is certainly won from here, and the moves that
// win it. Pure (no DOM).
//
// Fair play: the search only runs when the player knows the stock's order too (the Python
// `GripView` rule: a pass has been completed, or the stock is empty), so offering to finish
// tells the player nothing they could not have worked out; before that, the page never
// offers it. Swaps are left out: they only change which cell holds which pile, and
// building does not depend on cells (rule 5), so a win never needs one; a won deal is
// arranged by the rules themselves (rule 6). Part-pile moves are left out too: they
// only trade the tops of two piles, so the tops and the bottoms stay the same sets and
// no card can come in that could not before (the argument of the Python solver,
// app/grip/rules/solver.py). What is left brings cards in: the talon card onto a pile,
// a whole pile onto another (its cell takes the next card), deals and redeals.
//
// The search is a depth-first walk with a memory of the positions seen and a budget of
// positions: it proves a win (returns the winning line) or gives up (null), which the
// page takes as "not offered". It is cheap near the end, where it matters.

import { apply, legalActions, won } from './grip-rules.js';

/** @typedef {import('./grip-rules.js').GripState} GripState */
/** @typedef {import('./grip-rules.js').Action} Action */

export const FINISH_BUDGET = 150; // positions: at most about 80 ms of the main thread, run when the player pauses

/**
 * Whether a player with perfect memory knows the order of the stock (GripView.of).
 * @param {GripState} state
 * @returns {boolean}
 */
export function orderKnown(state) {
  return state.passes_used >= 2 || state.stock.length === 0;
}

// Positions that differ only in which cell holds which pile are the same here.
/**
 * @param {GripState} state
 * @returns {string}
 */
function keyOf(state) {
  return `${state.grid.map((p) => p.join('')).sort().join('|')}/${state.stock.join('')}/${state.talon.join('')}/${state.passes_used}`;
}

// Cards into the grid first (talon, then whole piles), then turning the stock.
/**
 * @param {Action} action
 * @returns {number}
 */
function rank(action) {
  return action.type === 'talon' ? 0 : action.type === 'move' ? 1 : 2;
}

/** The actions that win the deal from `state`, or null when none is found within
 *  `budget` positions or the stock's order is not known to the player. (An explicit
 *  stack, not recursion: a line can be hundreds of actions long.) */
/**
 * @param {GripState} state
 * @param {number} [budget]
 * @returns {Action[] | null}
 */
export function winningLine(state, budget = FINISH_BUDGET) {
  if (state.ended || !orderKnown(state)) return null;
  if (won(state)) return [];
  const seen = new Set([keyOf(state)]);
  /** @type {{ state: GripState, options: Action[], next: number, action: Action | null }[]} */
  const frames = [{ state, options: optionsOf(state), next: 0, action: null }];
  let left = budget;
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (frame.next >= frame.options.length) { frames.pop(); continue; }
    const action = frame.options[frame.next++];
    const after = apply(frame.state, action);
    // every frame but the first was pushed with the action that made it
    if (won(after)) return [...frames.slice(1).map((f) => /** @type {Action} */ (f.action)), action];
    if (after.ended) continue;
    const key = keyOf(after);
    if (seen.has(key)) continue;
    if (--left <= 0) return null;
    seen.add(key);
    frames.push({ state: after, options: optionsOf(after), next: 0, action });
  }
  return null;
}

/**
 * @param {GripState} s
 * @returns {Action[]}
 */
function optionsOf(s) {
  return legalActions(s, { swaps: false })
    .filter((a) => a.type !== 'move' || a.count === s.grid[a.src].length)
    .sort((a, b) => rank(a) - rank(b));
}
