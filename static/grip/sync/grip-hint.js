// Asking the server for a Devil's Grip hint without blocking play, pure of the page: the
// server must have the position first (the link is idle), hints are paced to the server's
// budget, and an answer for a position the player has left is dropped. The clock, the
// wait and the request are passed in; page/grip-session.js shows the outcome.

/** @typedef {import('./grip-sync-types.js').RequestFailure} RequestFailure */

// The server's default hint budget per game is 4 a second (DEMON_GRIP_SEARCH_RATE_PER_S).
export const HINT_SPACING_MS = 250;

/**
 * Paces hints to the server's default budget per game (4 a second): a player who holds
 * H, or plays hint after hint now that moves no longer wait for the server, is not
 * answered 429 "slow down"; the wait shows as the hint being asked.
 * @param {() => number} now a monotonic clock in milliseconds (performance.now)
 * @param {number} [spacing]
 */
export function createHintPacer(now, spacing = HINT_SPACING_MS) {
  let lastAt = -Infinity; // when the last hint request left
  return {
    /** How long the next request must wait (0 or less: none). */
    wait: () => lastAt + spacing - now(),
    /** A request leaves now. */
    sent() { lastAt = now(); },
  };
}

/** @typedef {ReturnType<typeof createHintPacer>} HintPacer */

/**
 * @template T
 * @typedef {{kind: 'stale'} | {kind: 'unsent'} | {kind: 'answer', answer: T}
 *   | {kind: 'failed', error: RequestFailure}} HintOutcome
 *   stale: the player moved on (no hint for an old position); unsent: the server does not
 *   have the position (unreachable); failed: the request failed
 */

/**
 * One hint request for the position the page shows now.
 * @template T
 * @param {object} how
 * @param {() => Promise<boolean>} how.idle resolves when the link is settled: whether the server has every operation
 * @param {() => boolean} how.stillAsked whether the page is still at the position asked about
 * @param {HintPacer} how.pacer
 * @param {(ms: number) => Promise<void>} how.sleep
 * @param {() => Promise<T>} how.ask the request itself
 * @returns {Promise<HintOutcome<T>>}
 */
export async function requestHint({ idle, stillAsked, pacer, sleep, ask }) {
  const sent = await idle(); // the server must have the position first
  if (!stillAsked()) return { kind: 'stale' };
  if (!sent) return { kind: 'unsent' };
  const wait = pacer.wait();
  if (wait > 0) {
    await sleep(wait);
    if (!stillAsked()) return { kind: 'stale' };
  }
  pacer.sent();
  let answer;
  try {
    answer = await ask();
  } catch (err) {
    return { kind: 'failed', error: /** @type {RequestFailure} */ (err) };
  }
  return stillAsked() ? { kind: 'answer', answer } : { kind: 'stale' };
}

/**
 * What a failed hint request means for the page: `quiet` (409: the game moved on
 * meanwhile, nothing to say), `offline` (the server unreachable: the hint waits for the
 * connection), `busy` (503: the search is busy), or `error` (the server's reason).
 * @param {number} status
 * @returns {'quiet' | 'offline' | 'busy' | 'error'}
 */
export function hintFailure(status) {
  if (status === 409) return 'quiet';
  if (status === 0) return 'offline';
  if (status === 503) return 'busy';
  return 'error';
}
