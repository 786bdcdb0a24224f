// What a Devil's Grip draw changes, pure (no DOM): each part of the page the controller
// draws (the bar's score, the rest of the bar, the sync line, the stock and talon, the
// summary, and each of the 24 cells) gets a key, a string of everything its drawing
// reads from the page's `view`. A move redraws only the parts whose key changed: a
// talon play touches one cell, the score and the talon; a deal the stock and the talon.
// Redrawing all 24 cells (about a hundred cards) on every move made the browser restyle
// the whole grid, which was most of a move's cost (docs/performance.md).

import { hintTouches } from './grip-model.js';

/** @typedef {import('./grip-model.js').GripPageView} GripPageView */
/** @typedef {'score' | 'bar' | 'sync' | 'top' | 'summary'} Part */
/** @typedef {Record<Part, string> & { cells: string[] }} DrawKeys */

/** @type {readonly Part[]} */
export const PARTS = Object.freeze(['score', 'bar', 'sync', 'top', 'summary']);

/** @type {(...parts: unknown[]) => string} */
const key = (...parts) => JSON.stringify(parts);

// The held cards and the targets are painted by the selection (cards/selection.js), not
// here: a cell's key is what its drawing (grip-panels.js) reads.
/**
 * @param {GripPageView} v
 * @param {number} c
 * @param {string} lang
 * @returns {string}
 */
export function cellKey(v, c, lang) {
  if (!v.game || !v.state) return '';
  return key(lang, v.state.grid[c] || [], Boolean(v.finished), hintTouches(v.hint, 'src', c), hintTouches(v.hint, 'dst', c),
    hintTouches(v.moved, 'src', c), hintTouches(v.moved, 'dst', c));
}

/** The keys of every part of the page for `view` `v` in language `lang`:
 *  {score, bar, sync, top, summary: strings, cells: 24 strings}.
 * @param {GripPageView} v
 * @param {string} lang
 * @returns {DrawKeys}
 */
export function drawKeys(v, lang) {
  const { game, state: s } = v;
  const busy = Boolean(v.busy || v.finishing);
  /** @type {string[]} */
  const cells = [];
  for (let c = 0; c < 24; c += 1) cells.push(cellKey(v, c, lang));
  if (!game || !s) {
    return { score: key(lang, 'none'), bar: key(lang, 'none', v.loadError || ''), sync: key(lang, v.sync, v.online),
      top: key(lang, 'none'), summary: key(lang, 'none'), cells };
  }
  const replay = v.replay ? key(v.replay.i, v.replay.steps.length, Boolean(v.replay.timer)) : null;
  return {
    score: key(lang, s.score, s.rating ?? null),
    bar: key(lang, game.number, Boolean(v.isDaily), s.passes_allowed ?? null, s.passes_used ?? 0, game.par ?? null,
      Boolean(v.parFailed), Boolean(game.winnable), Boolean(game.used_undo), Boolean(game.used_hint),
      Boolean(game.can_undo), Boolean(game.can_redo), busy, Boolean(v.replay), Boolean(v.finished),
      Boolean(v.hintAsked), Boolean(v.online), Boolean(v.finishLine)),
    sync: key(lang, v.sync, Boolean(v.online), Boolean(v.finished), Boolean(v.replay), Boolean(v.verified)),
    top: key(lang, s.stock, s.talon || [], s.talon_count ?? null, Boolean(v.finished), Boolean(v.busy),
      v.legal.some((a) => a.type === 'deal'), v.legal.some((a) => a.type === 'redeal'),
      hintTouches(v.hint, 'stock'), hintTouches(v.hint, 'talon')),
    summary: v.replay ? key(lang, 'replay', replay)
      : !v.finished ? key(lang, 'playing')
        : key(lang, 'over', s.score, s.rating ?? null, s.won, game.par ?? null, game.explain ?? null,
          Boolean(game.used_undo), Boolean(game.used_hint), Boolean(game.winnable), Boolean(game.can_undo), busy, game.number),
    cells,
  };
}

/** What to draw again going from keys `before` (null: nothing drawn yet) to `after`:
 *  {parts: Set of PARTS whose key changed, cells: the indices of the changed cells}.
 * @param {DrawKeys | null} before
 * @param {DrawKeys} after
 * @returns {{ parts: Set<Part>, cells: number[] }}
 */
export function changes(before, after) {
  /** @type {Set<Part>} */
  const parts = new Set();
  /** @type {number[]} */
  const cells = [];
  for (const part of PARTS) if (!before || before[part] !== after[part]) parts.add(part);
  after.cells.forEach((k, c) => { if (!before || before.cells[c] !== k) cells.push(c); });
  return { parts, cells };
}
