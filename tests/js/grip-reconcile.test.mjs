// node --test: the Devil's Grip page against the server's record (static/grip/sync/grip-reconcile.js):
// a saved game rebuilt, whether the server's answer is the page's game, a stale batch that
// did arrive, a reloaded game that changed on the server, and the sync line.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newGame, play, current, recordOf, viewOf } from '../../static/grip/grip-local.js';
import { legalActions } from '../../static/grip/grip-rules.js';
import { savedGameOf, rebuild, agrees, replaysTo, reloadDiffers, syncWhenReachable, isVerified }
  from '../../static/grip/sync/grip-reconcile.js';

const moves = (g, n) => {
  const ops = [];
  for (let i = 0; i < n; i++) {
    const [action] = legalActions(current(g), { swaps: false }).filter((a) => a.type !== 'end');
    const o = { op: 'action', action };
    ops.push(o);
    g = play(g, o);
  }
  return { game: g, ops };
};
// The server's answer for a page game: its record, its count and its view.
const answerFor = (g, seq) => ({ ...recordOf(g), seq, state: viewOf(current(g)), id: 'g1' });

test('a saved game: defaults, then what was saved, with the record as the acknowledged one', () => {
  const record = recordOf(newGame(5, 3));
  assert.deepEqual(savedGameOf(record), { id: null, token: null, daily: false, seq: 0, pending: [], meta: {},
    number: 5, passes: 3, acked: record });
  const saved = savedGameOf(record, { id: 'g', token: 't', daily: true, seq: 4, number: 99, acked: null });
  assert.deepEqual([saved.id, saved.token, saved.daily, saved.seq, saved.number, saved.acked], ['g', 't', true, 4, 5, record],
    'the record names the deal, whatever extra says');
});

test('a saved game is rebuilt from its record and its pending operations', () => {
  const start = newGame(42, null);
  const { game: acked } = moves(start, 2);
  const { game: after, ops } = moves(acked, 3);
  const saved = savedGameOf(recordOf(acked), { pending: ops });
  assert.deepEqual(recordOf(rebuild(saved)), recordOf(after));
  assert.equal(saved.pending.length, 3);
});

test('pending operations that do not replay are dropped, the game stops before them', () => {
  const start = newGame(42, null);
  const { game: acked, ops } = moves(start, 2);
  const saved = savedGameOf(recordOf(start), { pending: [ops[0], { op: 'redo' }, ops[1]] });
  const g = rebuild(saved);
  assert.deepEqual(recordOf(g), recordOf(play(start, ops[0])));
  assert.deepEqual(saved.pending, []);
  assert.notDeepEqual(recordOf(g), recordOf(acked));
});

test('the server agrees when its record and its view are the page\'s', () => {
  const { game: g } = moves(newGame(42, null), 3);
  assert.equal(agrees(g, answerFor(g, 3)), true);
  const { game: further } = moves(g, 1);
  assert.equal(agrees(g, answerFor(further, 4)), false, 'another record');
  const undone = play(g, { op: 'undo' });
  assert.equal(agrees(undone, { ...answerFor(undone, 4), used_undo: false }), false, 'undo not marked');
  const other = answerFor(g, 3);
  assert.equal(agrees(g, { ...other, state: { ...other.state, score: 99 } }), false, 'another view');
});

test('a stale batch that did arrive: the acknowledged record after the ops is the server\'s', () => {
  const start = newGame(42, null);
  const { game: after, ops } = moves(start, 3);
  assert.equal(replaysTo(recordOf(start), answerFor(after, 3), ops), true);
  assert.equal(replaysTo(recordOf(start), answerFor(after, 3), ops.slice(0, 2)), false);
  assert.equal(replaysTo(recordOf(start), answerFor(after, 3), [{ op: 'undo' }]), false, 'ops that do not replay');
});

test('a reloaded game differs when the server counts otherwise or has another record', () => {
  const { game: g } = moves(newGame(42, null), 2);
  const saved = savedGameOf(recordOf(g), { id: 'g1', seq: 2 });
  assert.equal(reloadDiffers(saved, g, answerFor(g, 2)), false);
  assert.equal(reloadDiffers(saved, g, answerFor(g, 3)), true);
  assert.equal(reloadDiffers(saved, g, answerFor(moves(g, 1).game, 2)), true);
});

test('the sync line: unreachable says offline, reachable clears only that', () => {
  assert.deepEqual(syncWhenReachable(null, false), { kind: 'offline' });
  assert.deepEqual(syncWhenReachable({ kind: 'refused', reason: 'x' }, false), { kind: 'offline' });
  assert.equal(syncWhenReachable({ kind: 'offline' }, true), null);
  assert.equal(syncWhenReachable(null, true), null);
  const refused = { kind: 'refused', reason: 'illegal' };
  assert.equal(syncWhenReachable(refused, true), refused);
  const lost = { kind: 'lost', reason: 'gone' };
  assert.equal(syncWhenReachable(lost, true), lost);
});

test('verified: the server has the game and every operation of it', () => {
  const record = recordOf(newGame(1, null));
  assert.equal(isVerified(null), false);
  assert.equal(isVerified(savedGameOf(record)), false, 'not created on the server yet');
  assert.equal(isVerified(savedGameOf(record, { id: 'g' })), true);
  assert.equal(isVerified(savedGameOf(record, { id: 'g', pending: [{ op: 'undo' }] })), false);
});
