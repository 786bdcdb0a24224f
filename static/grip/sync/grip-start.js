// Which Devil's Grip game the page starts with, pure: the game saved in this browser (with
// its operations not yet sent), a game saved in the older form (only its id and token,
// from before the page played moves itself: the server's record is fetched), or a new
// deal; and which deal a new one is. page/grip-session.js makes the requests and follows the game.

/** @typedef {import('./grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('../../common/storage.js').GripGameSavedBefore} GripGameSavedBefore */

/**
 * What to do with what the browser saved.
 * @param {SavedGame | GripGameSavedBefore | null} old the saved value (storage.js getGripGame), read
 *   back unchecked: each field used is checked here
 * @returns {{kind: 'resume', saved: SavedGame, check: boolean}
 *   | {kind: 'fetch', id: string, token: string, daily: boolean} | {kind: 'new'}}
 *   resume: follow it again, and `check` that the server still has its record (nothing
 *   was left to send); fetch: an older save, the record comes from the server; new: a new deal
 */
export function startPlan(old) {
  if (old && old.acked) return { kind: 'resume', saved: old, check: Boolean(old.id && !old.pending.length) };
  if (old && old.id && old.token) return { kind: 'fetch', id: old.id, token: old.token, daily: Boolean(old.daily) };
  return { kind: 'new' };
}

/**
 * An older save the server no longer has, or cannot say (not found, not this token, no
 * connection): a new deal is dealt instead of an error shown.
 * @param {number} status
 * @returns {boolean}
 */
export function dealInstead(status) {
  return status === 404 || status === 401 || status === 403 || status === 0;
}

/**
 * Whether a new deal must come from the server: "only deals that can be won" applies to
 * a random deal with no pass limit (only the server knows which deals are certified).
 * @param {{winnableOnly: boolean, passes: number | null, number: number | null, daily: boolean}} want
 * @returns {boolean}
 */
export function wantsWinnable({ winnableOnly, passes, number, daily }) {
  return winnableOnly && passes === null && number === null && !daily;
}

/**
 * The deal number of a new deal dealt on the page: the one asked for, today's daily deal,
 * or a random one.
 * @param {{number: number | null, daily: boolean}} want
 * @param {{today: () => number, random: () => number}} deals
 * @returns {number}
 */
export function dealNumber({ number, daily }, { today, random }) {
  return number !== null ? number : daily ? today() : random();
}
