// node --test: what a Devil's Grip draw changes (static/grip/grip-diff.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { drawKeys, changes, PARTS } from '../../static/grip/grip-diff.js';
import * as rules from '../../static/grip/grip-rules.js';

// A page view as page/grip-session.js builds it, from a rules state.
function view(state, over = {}) {
  const s = { ...state, stock: state.stock.length, talon: state.talon.slice(-3), talon_count: state.talon.length,
    score: rules.score(state), rating: rules.rating(rules.score(state)), won: rules.won(state) };
  return { game: { number: 42, par: null, used_undo: false, used_hint: false, can_undo: true, can_redo: false },
    state: s, legal: rules.legalActions(state, { swaps: false }), busy: false, replay: null, moved: null,
    finished: rules.isOver(state), hint: null, isDaily: false, parFailed: false, loadError: '', hintAsked: false,
    finishLine: false, finishing: false, online: true, verified: true, sync: null, ...over };
}

const first = rules.deal(42, 3);

test('the first draw draws every part and every cell', () => {
  const { parts, cells } = changes(null, drawKeys(view(first), 'en'));
  assert.deepEqual([...parts].sort(), [...PARTS].sort());
  assert.equal(cells.length, 24);
});

test('the same view changes nothing', () => {
  const keys = drawKeys(view(first), 'en');
  const again = changes(keys, drawKeys(view(first), 'en'));
  assert.equal(again.parts.size, 0);
  assert.deepEqual(again.cells, []);
});

test('a deal changes the stock and talon only: no cell, not the score', () => {
  const dealt = rules.apply(first, { type: 'deal' });
  const { parts, cells } = changes(drawKeys(view(first), 'en'), drawKeys(view(dealt), 'en'));
  assert.deepEqual([...parts], ['top']);
  assert.deepEqual(cells, []);
});

test('a move changes its two cells (the emptied one refilled), the score and the stock', () => {
  // Play deals until a whole-pile move is legal, then make it.
  let state = first;
  let move = null;
  while (!move) {
    move = rules.legalActions(state, { swaps: false })
      .find((a) => a.type === 'move' && a.count === state.grid[a.src].length) || null;
    if (!move) state = rules.apply(state, rules.legalActions(state, { swaps: false })[0]);
  }
  const after = rules.apply(state, move);
  const { parts, cells } = changes(drawKeys(view(state), 'en'), drawKeys(view(after), 'en'));
  assert.deepEqual(cells, [move.src, move.dst].sort((a, b) => a - b));
  assert.ok(parts.has('score'), 'a card entered the grid');
  assert.ok(parts.has('top'), 'the refill came from the stock');
  assert.ok(!parts.has('bar') && !parts.has('summary') && !parts.has('sync'));
});

test('a talon play changes its cell, the score and the talon', () => {
  let state = first;
  let play = null;
  while (!play) {
    play = rules.legalActions(state, { swaps: false }).find((a) => a.type === 'talon') || null;
    if (!play) state = rules.apply(state, { type: state.stock.length ? 'deal' : 'redeal' });
  }
  const after = rules.apply(state, play);
  const { parts, cells } = changes(drawKeys(view(state), 'en'), drawKeys(view(after), 'en'));
  assert.deepEqual(cells, [play.dst]);
  assert.deepEqual([...parts].sort(), ['score', 'top']);
});

test('a hint marks its cells; the language and the end redraw what they touch', () => {
  const keys = drawKeys(view(first), 'en');
  const hinted = changes(keys, drawKeys(view(first, { hint: { type: 'move', src: 3, dst: 17, count: 1 } }), 'en'));
  assert.deepEqual(hinted.cells, [3, 17]);
  assert.equal(hinted.parts.size, 0);
  const french = changes(keys, drawKeys(view(first), 'fr'));
  assert.equal(french.cells.length, 24);
  assert.equal(french.parts.size, PARTS.length);
  const ended = changes(keys, drawKeys(view(rules.apply(first, { type: 'end' }), { finished: true }), 'en'));
  assert.equal(ended.cells.length, 24, 'an ended deal\'s cards can no longer be picked');
  assert.ok(ended.parts.has('summary') && ended.parts.has('bar'));
});

test('no game yet: the keys still compare', () => {
  const none = drawKeys({ game: null, state: null, legal: [], sync: null, online: true, loadError: '' }, 'en');
  assert.equal(none.cells.length, 24);
  assert.ok(changes(none, drawKeys(view(first), 'en')).parts.has('bar'));
});
