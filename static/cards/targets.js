// What a selected card can do, read from the legal actions the server sent: the browser
// never works out a rule itself. Pure functions of plain data (no DOM), for both games.
//
// A selection is {src, count}: Demon's src is 'waste' or a tableau pile 0..6, Devil's
// Grip's is 'talon' or a grid cell 0..23; count is how many cards of the pile's top run
// it holds. A target is keyed as the page marks it with data-target: 't:3' (Demon
// tableau pile), 'f:2' (Demon foundation pile), 'c:17' (grid cell). Each target maps to
// the action(s) a drop there sends: {build} and, in Devil's Grip, {swap}.

/** @typedef {import('../demon/protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('../demon/protocol-types.js').DemonSelection} DemonSelection */
/**
 * Either game's selection. Devil's Grip's talon selection holds the talon's top card and
 * carries no count (grip-picks.js `{src: 'talon'}`).
 * @typedef {{src: string | number, count: number} | {src: 'talon', count?: undefined}} Selection
 */
/**
 * A Devil's Grip action as this module reads it (docs/protocol.md: deal, redeal, talon,
 * move, swap; cells 0–23).
 * @typedef {{type: string, src?: number | string, dst?: number, count?: number, a?: number, b?: number}} GripActionLike
 */
/**
 * What a drop on one target sends: the build, and in Devil's Grip the swap.
 * @template A
 * @typedef {{build?: A, swap?: A}} TargetEntry
 */

/**
 * @param {Selection | null | undefined} a
 * @param {Selection | null | undefined} b
 */
export function sameSelection(a, b) {
  return Boolean(a && b && a.src === b.src && a.count === b.count);
}

// Demon: the targets of a selection. A foundation takes one card at a time.
/**
 * @param {DemonAction[]} legal
 * @param {DemonSelection | null} sel
 * @returns {Map<string, TargetEntry<DemonAction>>}
 */
export function demonTargets(legal, sel) {
  /** @type {Map<string, TargetEntry<DemonAction>>} */
  const map = new Map();
  if (!sel) return map;
  for (const a of legal) {
    if (a.src !== sel.src) continue;
    if (a.type === 'tableau' && a.count === sel.count) {
      map.set(`t:${a.dst}`, { build: { type: 'tableau', src: sel.src, dst: a.dst, count: sel.count } });
    } else if (a.type === 'foundation' && sel.count === 1) {
      map.set(`f:${a.pile}`, { build: { type: 'foundation', src: sel.src, pile: a.pile } });
    }
  }
  return map;
}

// Demon's double-click: the first foundation play the server listed for the selected
// card (the page flies the card towards that pile), or null when there is none.
/**
 * @param {DemonAction[]} legal
 * @param {DemonSelection | null} sel
 * @returns {DemonAction | null}
 */
export function firstFoundationPlay(legal, sel) {
  if (!sel || sel.count !== 1) return null;
  return legal.find((a) => a.type === 'foundation' && a.src === sel.src) || null;
}

// The stock button of either game: draw (deal) when it is legal, else recycle (redeal).
/**
 * @template {{type: string}} A
 * @param {A[]} legal
 * @param {string} first
 * @param {string} second
 * @returns {A | null}
 */
export function stockAction(legal, first, second) {
  return legal.find((a) => a.type === first) || legal.find((a) => a.type === second) || null;
}

// Devil's Grip: the targets of a selection. A move or a talon card builds; a whole
// pile may instead swap places with another pile.
/**
 * @template {GripActionLike} A
 * @param {A[]} legal
 * @param {Selection | null} sel
 * @param {number} pileLength
 * @returns {Map<string, TargetEntry<A>>}
 */
export function gripTargets(legal, sel, pileLength) {
  /** @type {Map<string, TargetEntry<A>>} */
  const map = new Map();
  if (!sel) return map;
  /**
   * @param {number | undefined} cell
   * @param {'build' | 'swap'} kind
   * @param {A} action
   */
  const add = (cell, kind, action) => {
    const key = `c:${cell}`;
    map.set(key, { ...map.get(key), [kind]: action });
  };
  for (const a of legal) {
    if (sel.src === 'talon') {
      if (a.type === 'talon') add(a.dst, 'build', a);
    } else if (a.type === 'move' && a.src === sel.src && a.count === sel.count) {
      add(a.dst, 'build', a);
    } else if (a.type === 'swap' && sel.count === pileLength) {
      if (a.a === sel.src) add(a.b, 'swap', a);
      else if (a.b === sel.src) add(a.a, 'swap', a);
    }
  }
  return map;
}

// The action a drop on a target sends: the build, unless Shift asks for the swap (or
// a swap is all the target offers).
/**
 * @template A
 * @param {TargetEntry<A> | undefined} entry
 * @param {{shift?: boolean}} [how]
 * @returns {A | null}
 */
export function actionFor(entry, { shift = false } = {}) {
  if (!entry) return null;
  return shift && entry.swap ? entry.swap : entry.build || entry.swap || null;
}

// Picking a pile from the keyboard: the top card first, then each time one card more
// of its run, then round again. `length` is how many cards can be picked up there.
/**
 * @template {string | number} S
 * @param {{src: string | number, count: number} | null} sel
 * @param {S} src
 * @param {number} length
 * @returns {{src: S, count: number} | null}
 */
export function nextRun(sel, src, length) {
  if (!length) return null;
  if (sel && sel.src === src) return { src, count: sel.count >= length ? 1 : sel.count + 1 };
  return { src, count: 1 };
}

// ↑ / ↓: one card more or less of the same run, within 1..length.
/**
 * @template {{src: string | number, count: number}} T
 * @param {T} sel
 * @param {number} delta
 * @param {number} length
 * @returns {{src: T['src'], count: number}}
 */
export function resizeRun(sel, delta, length) {
  return { src: sel.src, count: Math.min(length, Math.max(1, sel.count + delta)) };
}
