// node --test: which Devil's Grip game the page starts with (static/grip/sync/grip-start.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { startPlan, dealInstead, wantsWinnable, dealNumber } from '../../static/grip/sync/grip-start.js';

const acked = { number: 3, passes: null, actions: [], redo: [], used_undo: false };

test('a saved game is followed again; checked against the server when nothing was left to send', () => {
  const sent = { id: 'g', token: 't', acked, pending: [] };
  assert.deepEqual(startPlan(sent), { kind: 'resume', saved: sent, check: true });
  const unsent = { id: 'g', token: 't', acked, pending: [{ op: 'undo' }] };
  assert.deepEqual(startPlan(unsent), { kind: 'resume', saved: unsent, check: false });
  const offline = { id: null, token: null, acked, pending: [] };
  assert.deepEqual(startPlan(offline), { kind: 'resume', saved: offline, check: false }, 'not on the server yet');
});

test('an older save (id and token only) has its record fetched; nothing saved deals anew', () => {
  assert.deepEqual(startPlan({ id: 'g', token: 't', daily: 1 }), { kind: 'fetch', id: 'g', token: 't', daily: true });
  assert.deepEqual(startPlan({ id: 'g', token: 't' }), { kind: 'fetch', id: 'g', token: 't', daily: false });
  for (const old of [null, undefined, {}, { id: 'g' }, { token: 't' }]) assert.deepEqual(startPlan(old), { kind: 'new' });
});

test('an older save the server cannot give back deals anew; other errors are shown', () => {
  assert.deepEqual([404, 401, 403, 0, 500, 503, 429, 400].map(dealInstead), [true, true, true, true, false, false, false, false]);
});

test('a winnable deal comes from the server: random, no pass limit, the option on', () => {
  const want = { winnableOnly: true, passes: null, number: null, daily: false };
  assert.equal(wantsWinnable(want), true);
  assert.equal(wantsWinnable({ ...want, winnableOnly: false }), false);
  assert.equal(wantsWinnable({ ...want, passes: 3 }), false);
  assert.equal(wantsWinnable({ ...want, number: 12 }), false);
  assert.equal(wantsWinnable({ ...want, daily: true }), false);
});

test('the deal number: the one asked for, today\'s, or a random one', () => {
  const deals = { today: () => 777, random: () => 42 };
  assert.equal(dealNumber({ number: 5, daily: false }, deals), 5);
  assert.equal(dealNumber({ number: 5, daily: true }, deals), 5);
  assert.equal(dealNumber({ number: null, daily: true }, deals), 777);
  assert.equal(dealNumber({ number: null, daily: false }, deals), 42);
});
