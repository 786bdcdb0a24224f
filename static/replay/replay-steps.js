// What both replay viewers (a Demon round, replay.js; a Devil's Grip game, grip-viewer.js)
// step through the same way: the speeds offered, and a step that stays inside the game.

/** @type {readonly number[]} */
export const SPEEDS = [0.5, 1, 2, 4, 8];

// The index a step of `delta` lands on, inside 0 .. count - 1.
/**
 * @param {number} i
 * @param {number} delta
 * @param {number} count
 * @returns {number}
 */
export function stepTo(i, delta, count) {
  return Math.max(0, Math.min(count - 1, i + delta));
}
