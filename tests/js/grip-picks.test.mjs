// node --test: the Devil's Grip page's cards as the input sees them (static/grip/grip-picks.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { pickOfKey, pickKeysOf, cellAfter } from '../../static/grip/grip-picks.js';

const lengths = (c) => [3, 0, 1][c] ?? 0;

test('a card of a cell picks it and every card above it', () => {
  assert.deepEqual(pickOfKey('c:0:0', lengths, false), { src: 0, count: 3 });
  assert.deepEqual(pickOfKey('c:0:2', lengths, false), { src: 0, count: 1 });
  assert.deepEqual(pickOfKey('c:2:0', lengths, false), { src: 2, count: 1 });
});

test('past the cell\'s cards, an empty cell or an unknown key pick nothing', () => {
  assert.equal(pickOfKey('c:0:3', lengths, true), null);
  assert.equal(pickOfKey('c:1:0', lengths, true), null);
  for (const key of [undefined, '', 'c:1', 'x:0:0', 'c:a:0', 'c:0:0 ']) assert.equal(pickOfKey(key, lengths, true), null, key);
});

test('the talon is picked when it has cards', () => {
  assert.deepEqual(pickOfKey('talon', lengths, true), { src: 'talon' });
  assert.equal(pickOfKey('talon', lengths, false), null);
});

test('the keys of a selection\'s cards, bottom first', () => {
  assert.deepEqual(pickKeysOf({ src: 5, count: 2 }, 4), ['c:5:2', 'c:5:3']);
  assert.deepEqual(pickKeysOf({ src: 5, count: 1 }, 1), ['c:5:0']);
  assert.deepEqual(pickKeysOf({ src: 'talon' }, 9), []);
  assert.deepEqual(pickKeysOf(null, 9), []);
  assert.deepEqual(pickOfKey(pickKeysOf({ src: 0, count: 2 }, 3)[0], lengths, false), { src: 0, count: 2 }, 'round trip');
});

test('the arrow keys move round the grid\'s ends; no focus starts at the first cell', () => {
  assert.equal(cellAfter(null, 1), 0);
  assert.equal(cellAfter(null, -8), 0);
  assert.equal(cellAfter(0, 1), 1);
  assert.equal(cellAfter(0, -1), 23);
  assert.equal(cellAfter(23, 1), 0);
  assert.equal(cellAfter(3, 8), 11);
  assert.equal(cellAfter(19, 8), 3);
  assert.equal(cellAfter(2, -8), 18);
});
