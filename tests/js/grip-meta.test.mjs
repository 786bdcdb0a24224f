// node --test: what only the server knows of a Devil's Grip game, as the page keeps it
// (static/grip/sync/grip-meta.js): aided games, par, hints, the solutions seen, the pass limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { solutionsSeenOf, withSolutionSeen, passesOf, metaOfFollowed, metaFromAnswer, savedMetaOf, withoutHint,
  withHint, SOLUTIONS_REMEMBERED } from '../../static/grip/sync/grip-meta.js';

test('the solutions seen: a saved list, or none', () => {
  assert.deepEqual(solutionsSeenOf([3, 4]), [3, 4]);
  assert.deepEqual(solutionsSeenOf(null), []);
  assert.deepEqual(solutionsSeenOf({ 3: true }), []);
});

test('a solution seen goes first, once, and the oldest are forgotten', () => {
  assert.deepEqual(withSolutionSeen([5, 7, 9], 7), [7, 5, 9]);
  assert.deepEqual(withSolutionSeen([], 1), [1]);
  const full = Array.from({ length: SOLUTIONS_REMEMBERED }, (_, i) => i + 1);
  const after = withSolutionSeen(full, 999);
  assert.equal(after.length, SOLUTIONS_REMEMBERED);
  assert.deepEqual([after[0], after.at(-1)], [999, SOLUTIONS_REMEMBERED - 1]);
});

test('the pass limit preference: 1, 3 or unlimited', () => {
  assert.deepEqual([1, 3, null, 2, '3', undefined, 0].map(passesOf), [1, 3, null, null, null, null, null]);
});

test('a game followed keeps its saved meta, and is aided when its solution was seen here', () => {
  const saved = { par: 40, used_hint: false, winnable: true };
  assert.equal(metaOfFollowed(saved, 12, [3]), saved);
  assert.deepEqual(metaOfFollowed(saved, 12, [12]), { par: 40, used_hint: true, winnable: true });
  assert.deepEqual(metaOfFollowed(undefined, 12, []), {});
  assert.deepEqual(saved, { par: 40, used_hint: false, winnable: true }, 'not changed');
});

test('an answer: aided by the server or by a solution seen; a known par stays when it has none', () => {
  const meta = { par: 50, hint: { type: 'deal' }, used_hint: false };
  assert.deepEqual(metaFromAnswer(meta, { number: 8, used_hint: false, winnable: false, par: null }, []),
    { par: 50, hint: { type: 'deal' }, used_hint: false, winnable: false, explain: null });
  assert.deepEqual(metaFromAnswer(meta, { number: 8, used_hint: true, winnable: true, par: 61, explain: 'x' }, []),
    { par: 61, hint: { type: 'deal' }, used_hint: true, winnable: true, explain: 'x' });
  assert.equal(metaFromAnswer(meta, { number: 8, used_hint: false }, [8]).used_hint, true);
  assert.equal(metaFromAnswer({}, { number: 8 }, []).par, null);
});

test('what is saved with the game: aided, winnable, par', () => {
  assert.deepEqual(savedMetaOf({ used_hint: true, winnable: false, par: 3, hint: { type: 'deal' }, explain: 'e' }),
    { used_hint: true, winnable: false, par: 3 });
});

test('a move drops the hint and the explanation; a hint answered brings its own', () => {
  const meta = { par: 4, used_hint: false, hint: { type: 'deal' }, hint_info: { expected_score: 3 }, explain: 'e' };
  assert.deepEqual(withoutHint(meta), { par: 4, used_hint: false, hint: null, hint_info: null, explain: null });
  assert.deepEqual(withHint(withoutHint(meta), { hint: { type: 'talon' }, hint_info: null, used_hint: true }),
    { par: 4, used_hint: true, hint: { type: 'talon' }, hint_info: null, explain: null });
  assert.equal(meta.hint.type, 'deal', 'not changed');
});
