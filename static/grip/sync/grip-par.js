// Fetching a Devil's Grip game's par (the score the hints reach), pure of the page: the
// server computes it in the background and may be busy (503), rate-limited (429) or out of
// reach (0), so the page asks again, waiting longer each time, a few times at most. The
// wait and the request are passed in; page/grip-session.js shows the par or that it failed.

/** @typedef {import('./grip-sync-types.js').RequestFailure} RequestFailure */

export const PAR_ATTEMPTS = 6;

/**
 * The wait after the failed attempt number `attempt` (0 first): 2 s, 4 s, 6 s, ...
 * @param {number} attempt
 * @returns {number} milliseconds
 */
export function parRetryDelay(attempt) {
  return 2000 * (attempt + 1);
}

/**
 * Whether a failed par request is worth asking again: the server busy, rate-limited or out of reach.
 * @param {number} status
 * @returns {boolean}
 */
export function parRetryable(status) {
  return status === 503 || status === 429 || status === 0;
}

/**
 * Asks for the par until it comes, a failure is not worth retrying, or PAR_ATTEMPTS are
 * spent. `gone` when the page no longer follows the game (or is gone) meanwhile.
 * @param {object} how
 * @param {() => Promise<{par: number | null}>} how.ask the request
 * @param {() => boolean} how.following whether the page still follows the game (checked before each request)
 * @param {() => boolean} how.wanted whether an answer is still wanted (following, and the page still there)
 * @param {(ms: number) => Promise<void>} how.sleep
 * @returns {Promise<{kind: 'par', par: number | null} | {kind: 'gone'} | {kind: 'failed'}>}
 */
export async function fetchPar({ ask, following, wanted, sleep }) {
  for (let attempt = 0; attempt < PAR_ATTEMPTS; attempt++) {
    if (!following()) return { kind: 'gone' };
    try {
      const answer = await ask();
      return wanted() ? { kind: 'par', par: answer.par } : { kind: 'gone' };
    } catch (err) {
      if (!parRetryable(/** @type {RequestFailure} */ (err).status)) break;
      await sleep(parRetryDelay(attempt));
      if (!wanted()) return { kind: 'gone' };
    }
  }
  return { kind: 'failed' };
}
