// The pure half of the keyed patch step the tables draw with (dom.js `keyedChildren`).
//
// Why: at a Demon table of eight, every play from anyone used to rebuild every panel, so
// the page's cost per play grew with the number of seats and a busy table kept the main
// thread nearly always busy. Instead each drawn piece (a seat's panel, a
// foundation pile, one of your piles) says what it is drawn from, as a short list of
// `parts` compared with Object.is: the state the reducer makes (demon-model.js) shares
// every object an event did not touch, so the one seat that moved is the only one whose
// parts differ, and only its piece is made again. No DOM here: node tests cover it.

// Whether two lists of parts are the same, element by element (Object.is: NaN equals
// itself; an object only itself, never a copy).
/**
 * @param {readonly unknown[] | undefined} a
 * @param {readonly unknown[] | undefined} b
 * @returns {boolean}
 */
export function sameParts(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

// What a patch does, given what was drawn (`previous`: Map of key -> parts) and what is
// wanted now (`items`: [{key, parts}], in the order to show): the keys to make (new, or
// drawn from other parts), the keys to keep as they are, and the keys to drop. A key
// given twice is a mistake in the caller: it throws rather than draw one piece twice.
/**
 * @template K
 * @param {ReadonlyMap<K, readonly unknown[]>} previous
 * @param {readonly { key: K, parts: readonly unknown[] }[]} items
 * @returns {{ make: K[], keep: K[], drop: K[] }}
 */
export function planPatch(previous, items) {
  /** @type {K[]} */
  const make = [];
  /** @type {K[]} */
  const keep = [];
  /** @type {Set<K>} */
  const seen = new Set();
  for (const { key, parts } of items) {
    if (seen.has(key)) throw new Error(`planPatch: key ${String(key)} given twice`);
    seen.add(key);
    if (previous.has(key) && sameParts(previous.get(key), parts)) keep.push(key);
    else make.push(key);
  }
  const drop = [...previous.keys()].filter((key) => !seen.has(key));
  return { make, keep, drop };
}
