// A browser's rank in the day's table (GET /api/daily marks its own entry `mine`): one
// more than the finished entries that scored more, among all the finished ones; null
// while its own race has not ended.

/**
 * @param {{ score: number | null, mine?: boolean }[]} entries
 * @returns {{rank: number, of: number} | null}
 */
export function rankOf(entries) {
  const mine = entries.find((e) => e.mine);
  if (!mine || mine.score === null) return null;
  return { rank: placeOf(entries, mine.score), of: entries.filter((e) => e.score !== null).length };
}

/**
 * The place of a finished entry's `score` in the table: equal scores share it.
 * @param {{ score: number | null }[]} entries
 * @param {number} score
 */
export function placeOf(entries, score) {
  return 1 + entries.filter((e) => e.score !== null && e.score > score).length;
}
