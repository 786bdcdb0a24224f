// A race's margin and the note that tells it. The margin (milliseconds on the server's
// receive clock, docs/protocol.md "The margin of a race") shows as seconds: two
// decimals, three below a hundredth so a photo finish never reads "0.00", with the
// language's decimal mark. A margin of 0 ms is a tie: both plays reached the server in
// the same turn of its loop, and the one taken first won; that is said as a tie, never
// as a win by 0.000 s. And a note must not pester: at a table of eight a player wins a
// race every few seconds, so a won race is said only when it was a race (within
// CLOSE_MS) and then at most once every QUIET_MS. A lost race is always said: the
// player's card came back, and the note says why.
// Pure: unit-tested in tests/js/margin.test.mjs; static/demon/table.js shows the notes.

/** A won race by more than this was no race: the loser played on an old screen. */
export const CLOSE_MS = 1000;
/** After a won race's note, the next one waits this long (the wins between go unsaid). */
export const QUIET_MS = 10000;

/**
 * @param {number} ms
 * @param {string} lang
 * @returns {string}
 */
export function formatMargin(ms, lang) {
  const seconds = Math.max(0, Number(ms) || 0) / 1000;
  const digits = ms < 10 ? 3 : 2;
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(seconds);
}

/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */

/**
 * What the loser of a race reads: who was first and by how much, a tie as a tie, or,
 * with no margin known, who was first.
 * @param {string} winner the winner's shown name
 * @param {number | undefined} marginMs
 * @param {Translate} t
 * @param {string} lang
 * @returns {string}
 */
export function lostText(winner, marginMs, t, lang) {
  if (typeof marginMs !== 'number') return t('table.beatenBy', { name: winner });
  if (marginMs <= 0) return t('table.tiedLost', { name: winner });
  return t('table.beatenByMargin', { name: winner, margin: formatMargin(marginMs, lang) });
}

/**
 * What the winner of a race reads.
 * @param {string} loser the loser's shown name
 * @param {number} marginMs
 * @param {Translate} t
 * @param {string} lang
 * @returns {string}
 */
export function wonText(loser, marginMs, t, lang) {
  if (marginMs <= 0) return t('table.tiedWon', { name: loser });
  return t('table.wonByMargin', { name: loser, margin: formatMargin(marginMs, lang) });
}

/**
 * Which won races get a note: a close one, and not within QUIET_MS of the last one
 * said. `now` is any clock in milliseconds (the page's performance.now()).
 * @param {{closeMs?: number, quietMs?: number}} [limits]
 */
export function createWinGate({ closeMs = CLOSE_MS, quietMs = QUIET_MS } = {}) {
  let last = -Infinity;
  return {
    /**
     * @param {number} marginMs
     * @param {number} now
     * @returns {boolean} whether to say this win (and, if so, the quiet time starts)
     */
    admit(marginMs, now) {
      if (!(marginMs <= closeMs) || now - last < quietMs) return false;
      last = now;
      return true;
    },
  };
}
