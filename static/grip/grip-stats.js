// Devil's Grip statistics as plain data: per pass limit ('1', '3', 'u' for unlimited),
// deals played clean kept apart from deals played with undo or hints ("assisted",
// rule 12). Pure functions; storage.js keeps the object in localStorage.

export const LIMITS = ['1', '3', 'u'];

export function limitKey(passes) {
  return passes === null || passes === undefined ? 'u' : String(passes);
}

export function emptyBucket() {
  return { played: 0, won: 0, best: null, total: 0, parTotal: 0, parCount: 0 };
}

export function emptyStats() {
  const byLimit = {};
  for (const k of LIMITS) byLimit[k] = { clean: emptyBucket(), assisted: emptyBucket() };
  return { byLimit, counted: [] };
}

// A stored object, whatever its age or damage, as a complete stats object.
export function normalize(raw) {
  const stats = emptyStats();
  if (!raw || typeof raw !== 'object') return stats;
  for (const k of LIMITS) {
    for (const kind of ['clean', 'assisted']) {
      const b = raw.byLimit && raw.byLimit[k] && raw.byLimit[k][kind];
      if (b && typeof b === 'object') stats.byLimit[k][kind] = { ...emptyBucket(), ...b };
    }
  }
  if (Array.isArray(raw.counted)) stats.counted = raw.counted.slice(-200);
  return stats;
}

// result: {id, passes, score, won, assisted, par (null when unknown)}. A deal counts once.
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
export function summary(bucket) {
  const avg = bucket.played ? Math.round((bucket.total / bucket.played) * 10) / 10 : null;
  const vsPar = bucket.parCount ? Math.round((bucket.parTotal / bucket.parCount) * 10) / 10 : null;
  return { played: bucket.played, won: bucket.won, best: bucket.best, average: avg, vsPar };
}
