// node --test: the keyed patch step's plan (static/common/keyed.js): what a table redraw
// makes again, keeps and drops.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { sameParts, planPatch } from '../../static/common/keyed.js';

test('parts are the same element by element, objects by identity only', () => {
  const view = { tableau: [] };
  assert.equal(sameParts([view, 3, 'en'], [view, 3, 'en']), true);
  assert.equal(sameParts([view, 3], [{ tableau: [] }, 3]), false, 'an equal copy is another object');
  assert.equal(sameParts([1, 2], [1, 2, 3]), false);
  assert.equal(sameParts([NaN], [NaN]), true);
  assert.equal(sameParts([null], [undefined]), false);
  assert.equal(sameParts(null, []), false, 'nothing drawn yet');
});

test('one seat moved at a table of eight: that panel is made again, the others kept', () => {
  const seats = Array.from({ length: 8 }, (_, i) => ({ seat: i }));
  const drawn = new Map(seats.map((s, i) => [i, [s, 0]]));
  const moved = { seat: 5 };
  const items = seats.map((s, i) => ({ key: i, parts: [i === 5 ? moved : s, 0] }));
  const plan = planPatch(drawn, items);
  assert.deepEqual(plan.make, [5]);
  assert.deepEqual(plan.keep, [0, 1, 2, 3, 4, 6, 7]);
  assert.deepEqual(plan.drop, []);
});

test('a first drawing makes everything; a key no longer wanted is dropped', () => {
  assert.deepEqual(planPatch(new Map(), [{ key: 'a', parts: [] }, { key: 'b', parts: [1] }]),
    { make: ['a', 'b'], keep: [], drop: [] });
  const plan = planPatch(new Map([['a', []], ['b', [1]], ['c', [2]]]), [{ key: 'c', parts: [2] }, { key: 'a', parts: [] }]);
  assert.deepEqual(plan, { make: [], keep: ['c', 'a'], drop: ['b'] });
});

test('a new foundation pile: the new pile is made and the "new pile" slot moves on', () => {
  const drawn = new Map([[0, ['AS', 0]], ['new', [1]]]);
  const plan = planPatch(drawn, [{ key: 0, parts: ['AS', 0] }, { key: 1, parts: ['AC', 3] }, { key: 'new', parts: [2] }]);
  assert.deepEqual(plan.make, [1, 'new']);
  assert.deepEqual(plan.keep, [0]);
});

test('a key given twice is refused, not drawn twice', () => {
  assert.throws(() => planPatch(new Map(), [{ key: 1, parts: [] }, { key: 1, parts: [] }]), /twice/);
});
