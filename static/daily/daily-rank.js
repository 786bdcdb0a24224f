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
  const finished = entries.filter((e) => e.score !== null);
  const myScore = mine.score;
  return { rank: 1 + finished.filter((e) => /** @type {number} */ (e.score) > myScore).length, of: finished.length };
}
