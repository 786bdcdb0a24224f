// A Devil's Grip game as its replay viewer holds it: every position from the
// deal to the last move, made here by the page's own rules (grip-local.js over
// grip-rules.js, held to the Python engine by tests/engine/test_grip_js_differential.py)
// from the game's record as the server keeps it (GET /api/grip/{id}/sync: the deal
// number, the pass limit and the actions that led to the final position). Pure: no DOM,
// no clock. docs/architecture.md says why the positions are made here and not sent.

import { newGame, play, current, viewOf } from '../grip/grip-local.js';

// Devil's Grip records keep no times (the page plays every move at once and sends them
// in batches, hours later for a game played offline, so the server's receive clock says
// nothing of the player's pace): a replay plays one move every STEP_S seconds at ×1.
export const STEP_S = 0.6;

/** @typedef {import('../grip/grip-model.js').GripView} GripView */
/** @typedef {import('../grip/grip-rules.js').Action} Action */
/** @typedef {{ views: GripView[], actions: Action[] }} GripPositions */

// {views, actions}: views[0] is the deal, views[i] the position after actions[i - 1];
// throws IllegalAction when the record does not replay.
/**
 * @param {{ number: number, passes: number | null, actions: readonly Action[] }} record
 * @returns {GripPositions}
 */
export function gripPositions(record) {
  let game = newGame(record.number, record.passes);
  const views = [viewOf(current(game))];
  for (const action of record.actions) {
    game = play(game, { op: 'action', action });
    views.push(viewOf(current(game)));
  }
  return { views, actions: [...record.actions] };
}

// Whether the last position is the one the server says the game ended on (its view):
// the rules on the page and the engine agree on this game.
/**
 * @param {GripPositions} positions
 * @param {GripView} serverView
 * @returns {boolean}
 */
export function endsAsServer(positions, serverView) {
  return JSON.stringify(positions.views[positions.views.length - 1]) === JSON.stringify(serverView);
}

// How long the viewer waits on position i before showing i + 1, in milliseconds (null at
// the end).
/**
 * @param {number} i
 * @param {number} count
 * @param {number} speed
 * @returns {number | null}
 */
export function gripDelayMs(i, count, speed) {
  return i + 1 >= count ? null : (STEP_S * 1000) / speed;
}

// How the game ended, for the viewer's heading: 'won', 'over' (rule 10 or the player
// ended the deal) or 'left' (given up for another deal, unfinished).
/**
 * @param {GripView} view
 * @returns {'won' | 'over' | 'left'}
 */
export function outcomeOf(view) {
  if (view.won) return 'won';
  return view.over || view.ended ? 'over' : 'left';
}
