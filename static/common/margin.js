// A race's margin (milliseconds on the server's receive clock) as the seconds a note
// shows: two decimals, three below a hundredth so a photo finish never reads "0.00",
// with the language's decimal mark. Pure: unit-tested in tests/js/margin.test.mjs.

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
