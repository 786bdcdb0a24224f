// The Devil's Grip page's cards as the input sees them, pure: what a [data-pick] key
// stands for (the talon, or the top cards of a grid cell from the one picked up), the
// keys of the cards a selection holds, and the cell the arrow keys move the focus to.
// page/grip-input.js reads the keys off the page and finds the elements.

import { CELLS } from './grip-model.js';

/** @typedef {{src: 'talon'} | {src: number, count: number}} GripSelection the cards held */

/**
 * The selection a `data-pick` key stands for: 'talon', or 'c:<cell>:<index>' for the card
 * at that index of the cell and every card above it. Null for anything else, or for an
 * index past the cell's cards (`length(cell)`), or when the talon is empty.
 * @param {string | undefined} key
 * @param {(cell: number) => number} length how many cards a cell holds now
 * @param {boolean} talonHasCards
 * @returns {GripSelection | null}
 */
export function pickOfKey(key, length, talonHasCards) {
  if (key === 'talon') return talonHasCards ? { src: 'talon' } : null;
  const m = /^c:(\d+):(\d+)$/.exec(key || '');
  if (!m) return null;
  const c = Number(m[1]);
  const j = Number(m[2]);
  const count = length(c);
  if (j >= count) return null;
  return { src: c, count: count - j };
}

/**
 * The `data-pick` keys of a cell selection's cards, bottom first; none for the talon
 * (its cards are the talon's) or no selection.
 * @param {GripSelection | null} sel
 * @param {number} length how many cards the selection's cell holds
 * @returns {string[]}
 */
export function pickKeysOf(sel, length) {
  if (!sel || sel.src === 'talon') return [];
  const keys = [];
  for (let j = length - sel.count; j < length; j++) keys.push(`c:${sel.src}:${j}`);
  return keys;
}

/**
 * The cell the focus moves to: `delta` cells on (1 right, -1 left, ±8 a row), round the
 * grid's ends; the first cell when no cell has the focus.
 * @param {number | null} cell
 * @param {number} delta
 * @returns {number}
 */
export function cellAfter(cell, delta) {
  return cell === null ? 0 : (cell + delta + CELLS) % CELLS;
}
