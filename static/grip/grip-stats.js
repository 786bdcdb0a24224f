// Devil's Grip statistics as plain data: per pass limit ('1', '3', 'u' for unlimited),
// deals played clean kept apart from deals played with undo or hints ("assisted",
// rule 12). Pure functions; storage.js keeps the object in localStorage.

/**
 * One kind of deal at one pass limit: deals played and won, the best (lowest) score,
 * the scores' total, and the total and count of scores against a known par.
 * @typedef {{ played: number, won: number, best: number | null, total: number, parTotal: number, parCount: number }} Bucket
 */
/** @typedef {'clean' | 'assisted'} DealKind */
/**
 * The statistics: per pass limit (LIMITS), the two kinds of deal; and the ids of the
 * deals counted (the last 200), so that a deal counts once.
 * @typedef {{ byLimit: Record<string, Record<DealKind, Bucket>>, counted: string[] }} GripStats
 */
/**
 * A finished deal, as it counts: `par` null when unknown.
 * @typedef {{ id: string, passes: number | null, score: number, won: boolean, assisted: boolean, par: number | null }} GripResult
 */

export const LIMITS = ['1', '3', 'u'];

/**
 * @param {number | null | undefined} passes
 * @returns {string}
 */
export function limitKey(passes) {
  return passes === null || passes === undefined ? 'u' : String(passes);
}

/** @returns {Bucket} */
export function emptyBucket() {
  return { played: 0, won: 0, best: null, total: 0, parTotal: 0, parCount: 0 };
}

/** @returns {GripStats} */
export function emptyStats() {
  /** @type {GripStats['byLimit']} */
  const byLimit = {};
  for (const k of LIMITS) byLimit[k] = { clean: emptyBucket(), assisted: emptyBucket() };
  return { byLimit, counted: [] };
}

// A stored object, whatever its age or damage, as a complete stats object.
/**
 * @param {unknown} stored
 * @returns {GripStats}
 */
export function normalize(stored) {
  const stats = emptyStats();
  if (!stored || typeof stored !== 'object') return stats;
  const raw = /** @type {{ byLimit?: Record<string, Record<string, unknown> | undefined>, counted?: unknown }} */ (stored);
  for (const k of LIMITS) {
    for (const kind of /** @type {const} */ (['clean', 'assisted'])) {
      const b = raw.byLimit && raw.byLimit[k] && raw.byLimit[k][kind];
      if (b && typeof b === 'object') stats.byLimit[k][kind] = { ...emptyBucket(), ...b };
    }
  }
  if (Array.isArray(raw.counted)) stats.counted = raw.counted.slice(-200);
  return stats;
}

// result: {id, passes, score, won, assisted, par (null when unknown)}. A deal counts once.
/**
 * @param {GripStats} stats
 * @param {GripResult} result
 * @returns {GripStats}
 */
export function addResult(stats, result) {
  if (stats.counted.includes(result.id)) return stats;
  const next = normalize(stats);
  const bucket = next.byLimit[limitKey(result.passes)][result.assisted ? 'assisted' : 'clean'];
  bucket.played += 1;
  bucket.total += result.score;
  if (result.won) bucket.won += 1;
  if (bucket.best === null || result.score < bucket.best) bucket.best = result.score;
  if (typeof result.par === 'number') {
    bucket.parTotal += result.score - result.par;
    bucket.parCount += 1;
  }
  next.counted = [...next.counted, result.id].slice(-200);
  return next;
}

// What the page shows for a bucket: averages rounded to one decimal, null when none.
/**
 * @param {Bucket} bucket
 * @returns {{ played: number, won: number, best: number | null, average: number | null, vsPar: number | null }}
 */
export function summary(bucket) {
  const avg = bucket.played ? Math.round((bucket.total / bucket.played) * 10) / 10 : null;
  const vsPar = bucket.parCount ? Math.round((bucket.parTotal / bucket.parCount) * 10) / 10 : null;
  return { played: bucket.played, won: bucket.won, best: bucket.best, average: avg, vsPar };
}
