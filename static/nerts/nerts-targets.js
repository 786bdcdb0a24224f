// What a Nerts player holds and where it may go, read from the legal actions the server
// sent: the page knows no Nerts rule (as targets.js for Demon). Pure: plain data in and
// out, no DOM.
//
// A picked card is marked on the page with data-pick: 'n' the Nerts pile's top, 'w' the
// waste's top, 'k:2:5' the sixth card of work pile 3 (with the cards above it). A target
// is marked with data-target: 't:2' work pile 3, 'f:4' foundation pile 5 (the one after
// the last: a new pile, an ace).

/** @typedef {import('./nerts-types.js').NertsAction} NertsAction */
/** @typedef {import('./nerts-types.js').NertsSelection} NertsSelection */
/** @typedef {import('./nerts-types.js').NertsSeatView} NertsSeatView */
/** @typedef {import('../cards/targets.js').TargetEntry<NertsAction>} Entry */

/**
 * The selection a data-pick key stands for in this seat's layout, or null.
 * @param {string | undefined} pick
 * @param {NertsSeatView | null} me
 * @returns {NertsSelection | null}
 */
export function selectionOf(pick, me) {
  if (!me || !pick) return null;
  if (pick === 'n') return me.nerts_top ? { src: 'nerts', count: 1 } : null;
  if (pick === 'w') return me.waste.length ? { src: 'waste', count: 1 } : null;
  const m = /^k:([0-3]):(\d+)$/.exec(pick);
  if (!m) return null;
  const pile = me.work[Number(m[1])];
  const j = Number(m[2]);
  return pile && j < pile.length ? { src: Number(m[1]), count: pile.length - j } : null;
}

/**
 * The data-pick keys of the cards a selection holds (what lifts with it).
 * @param {NertsSelection | null} sel
 * @param {NertsSeatView | null} me
 * @returns {string[]}
 */
export function pickKeys(sel, me) {
  if (!sel || !me) return [];
  if (sel.src === 'nerts') return me.nerts_top ? ['n'] : [];
  if (sel.src === 'waste') return me.waste.length ? ['w'] : [];
  const pile = me.work[sel.src];
  if (!pile || sel.count < 1 || sel.count > pile.length) return [];
  const keys = [];
  for (let j = pile.length - sel.count; j < pile.length; j++) keys.push(`k:${sel.src}:${j}`);
  return keys;
}

/**
 * Where a selection may go: target key -> the action a drop there sends. A foundation
 * takes one card; a work pile the run the server listed with that count.
 * @param {NertsAction[]} legal
 * @param {NertsSelection | null} sel
 * @returns {Map<string, Entry>}
 */
export function nertsTargets(legal, sel) {
  /** @type {Map<string, Entry>} */
  const map = new Map();
  if (!sel) return map;
  for (const a of legal) {
    if (a.src !== sel.src) continue;
    if (a.type === 'work' && a.count === sel.count && typeof a.dst === 'number') {
      map.set(`t:${a.dst}`, { build: { type: 'work', src: sel.src, dst: a.dst, count: sel.count } });
    } else if (a.type === 'foundation' && sel.count === 1 && typeof a.pile === 'number') {
      map.set(`f:${a.pile}`, { build: { type: 'foundation', src: sel.src, pile: a.pile } });
    }
  }
  return map;
}

/**
 * A double-click (or F): the card to the foundation that takes it (the server picks the
 * pile: `pile: null`; `key` is the first pile it listed, where the card flies), else the
 * held cards to the first work pile the server listed for them; null when neither.
 * @param {NertsAction[]} legal
 * @param {NertsSelection | null} sel
 * @param {{foundationOnly?: boolean}} [options] F sends to a foundation only
 * @returns {{action: NertsAction, key: string} | null}
 */
export function quickMove(legal, sel, { foundationOnly = false } = {}) {
  if (!sel) return null;
  const home = sel.count === 1 ? legal.find((a) => a.type === 'foundation' && a.src === sel.src) : undefined;
  if (home) return { action: { type: 'foundation', src: sel.src, pile: null }, key: `f:${home.pile}` };
  if (foundationOnly) return null;
  const work = legal.find((a) => a.type === 'work' && a.src === sel.src && a.count === sel.count);
  if (!work) return null;
  return { action: { type: 'work', src: sel.src, dst: work.dst, count: sel.count }, key: `t:${work.dst}` };
}

/**
 * How many cards of a source the keyboard can pick up (a work pile: all of them; the
 * Nerts pile and the waste: the top card).
 * @param {NertsSeatView | null} me
 * @param {import('./nerts-types.js').NertsSrc} src
 */
export function pickable(me, src) {
  if (!me) return 0;
  if (src === 'nerts') return me.nerts_top ? 1 : 0;
  if (src === 'waste') return me.waste.length ? 1 : 0;
  return me.work[src] ? me.work[src].length : 0;
}
