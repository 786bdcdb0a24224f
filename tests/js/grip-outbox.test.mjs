// node --test: the Devil's Grip link's decisions (static/grip/sync/grip-outbox.js): which request
// goes next, the backoff, when `idle()` is settled, and what a refused batch means.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createOutbox, nextRequest, startRequest, endRequest, idleAnswer, setReachable, nextRetryWait, isUnreachable, recordFrom,
  adoptCreated, take, acknowledge, giveUpPending, batchFailure, answerWasLost, MAX_OPS_PER_REQUEST, RETRY_MS,
} from '../../static/grip/sync/grip-outbox.js';

const record = { number: 7, passes: null, actions: [], redo: [], used_undo: false };
const game = (extra = {}) => ({ id: 'g1', token: 'tk', daily: false, number: 7, passes: null, seq: 0,
  acked: record, pending: [], meta: {}, ...extra });
const op = (i) => ({ op: 'action', action: { type: 'move', src: i } });

test('nothing to do: no game, closed, a request on its way, or nothing pending', () => {
  const box = createOutbox();
  assert.equal(nextRequest(box), null);
  box.saved = game();
  assert.equal(nextRequest(box), null, 'nothing pending');
  box.saved.pending = [op(1)];
  box.inFlight = [];
  assert.equal(nextRequest(box), null, 'one request at a time');
  box.inFlight = null;
  box.closed = true;
  assert.equal(nextRequest(box), null);
});

test('a game started offline is created first, even with nothing played', () => {
  const box = createOutbox();
  box.saved = game({ id: null, token: null });
  assert.deepEqual(nextRequest(box), { kind: 'create', game: box.saved });
});

test('the pending operations go in order, in batches of at most MAX_OPS_PER_REQUEST', () => {
  const box = createOutbox();
  const ops = Array.from({ length: MAX_OPS_PER_REQUEST + 5 }, (_, i) => op(i));
  box.saved = game({ pending: ops });
  const next = nextRequest(box);
  assert.equal(next.kind, 'moves');
  assert.deepEqual(next.ops, ops.slice(0, MAX_OPS_PER_REQUEST));
  acknowledge(box.saved, next.ops.length, { ...record, seq: MAX_OPS_PER_REQUEST });
  assert.deepEqual(nextRequest(box).ops, ops.slice(MAX_OPS_PER_REQUEST));
});

test('idle() is settled with nothing on its way, and says whether the server has everything', () => {
  const box = createOutbox();
  assert.equal(idleAnswer(box), false, 'no game: nothing was sent');
  box.saved = game();
  assert.equal(idleAnswer(box), true);
  box.saved.pending = [op(1)];
  assert.equal(idleAnswer(box), null, 'reachable with ops to send: not settled yet');
  box.online = false;
  assert.equal(idleAnswer(box), false, 'unreachable: settled, not sent');
  box.saved.pending = [];
  box.inFlight = [op(1)];
  assert.equal(idleAnswer(box), null, 'a request on its way');
});

test('the backoff grows 1, 2, 4, 8, 15 s and stays there; reaching the server resets it', () => {
  const box = createOutbox();
  const waits = Array.from({ length: 7 }, () => nextRetryWait(box));
  assert.deepEqual(waits, [...RETRY_MS, 15000, 15000]);
  assert.equal(setReachable(box, true), false, 'already online: no change to report');
  assert.equal(box.failures, 0);
  assert.equal(nextRetryWait(box), 1000);
});

test('reachability is reported only when it changes', () => {
  const box = createOutbox();
  assert.equal(setReachable(box, false), true);
  assert.equal(setReachable(box, false), false);
  assert.equal(box.online, false);
  box.failures = 3;
  assert.equal(setReachable(box, false), false);
  assert.equal(box.failures, 3, 'a failure does not reset the backoff');
  assert.equal(setReachable(box, true), true);
  assert.equal(box.online, true);
});

test('no connection, a server error or 429 make the server unreachable; a 4xx does not', () => {
  assert.deepEqual([0, 500, 502, 503, 429, 400, 401, 404, 409].map(isUnreachable),
    [true, true, true, true, true, false, false, false, false]);
});

test('a created game keeps its deal and follows from seq 0', () => {
  const g = game({ id: null, token: null, seq: 4 });
  adoptCreated(g, { id: 'new', token: 'tok' });
  assert.deepEqual([g.id, g.token, g.seq], ['new', 'tok', 0]);
});

test('an answer becomes the acknowledged record, in the server key order, without the rest', () => {
  const answer = { used_undo: true, redo: [], actions: [{ type: 'deal' }], passes: 3, number: 9, seq: 2, state: {}, id: 'x' };
  assert.deepEqual(Object.keys(recordFrom(answer)), ['number', 'passes', 'actions', 'redo', 'used_undo']);
  const g = game({ pending: [op(1), op(2), op(3)] });
  take(g, answer);
  assert.equal(g.seq, 2);
  assert.deepEqual(g.acked, { number: 9, passes: 3, actions: [{ type: 'deal' }], redo: [], used_undo: true });
  assert.equal(g.pending.length, 3, 'take alone leaves the pending ops');
  acknowledge(g, 2, answer);
  assert.deepEqual(g.pending, [op(3)]);
  giveUpPending(g, { ...answer, seq: 5 });
  assert.deepEqual([g.pending, g.seq], [[], 5]);
});

test('a failed batch: the server game (409), a lost game (404), or try again', () => {
  const server = { ...record, seq: 3 };
  assert.deepEqual(batchFailure({ status: 409, detail: 'illegal', data: { code: 'illegal', game: server } }),
    { kind: 'conflict', server, code: 'illegal', reason: 'illegal' });
  assert.deepEqual(batchFailure({ status: 409, data: { code: 'stale', game: server } }),
    { kind: 'conflict', server, code: 'stale', reason: '' });
  assert.deepEqual(batchFailure({ status: 409, detail: 'x', data: {} }), { kind: 'retry' }, 'a 409 without the game');
  assert.deepEqual(batchFailure({ status: 404, detail: 'gone' }), { kind: 'lost', reason: 'gone' });
  assert.deepEqual(batchFailure({ status: 0, detail: 'network' }), { kind: 'retry' });
  assert.deepEqual(batchFailure({ status: 503 }), { kind: 'retry' });
});

test('a stale answer whose batch did arrive is an acknowledgement, anything else a refusal', () => {
  const g = game({ seq: 4, pending: [op(1), op(2)] });
  const ops = g.pending;
  const yes = () => true;
  const conflict = (code, seq) => ({ code, server: { ...record, seq } });
  assert.equal(answerWasLost(conflict('stale', 6), g, ops, yes), true);
  assert.equal(answerWasLost(conflict('stale', 5), g, ops, yes), false, 'the server has another count');
  assert.equal(answerWasLost(conflict('illegal', 6), g, ops, yes), false);
  assert.equal(answerWasLost(conflict('stale', 6), g, ops, () => false), false, 'not the page\'s record');
  let asked = null;
  answerWasLost(conflict('stale', 6), g, ops, (server, sent) => { asked = [server.seq, sent]; return true; });
  assert.deepEqual(asked, [6, ops]);
});

test('an answer for a game left behind does not clear the request of the game followed now', () => {
  const box = createOutbox();
  box.saved = game({ id: null, token: null });
  const first = startRequest(box, []);
  box.saved = game({ id: null, token: null, number: 8 }); // the page followed another game
  box.inFlight = null;
  const second = startRequest(box, []);
  assert.notEqual(first, second);
  endRequest(box, first);
  assert.equal(box.inFlight, second, 'still on its way: no second request beside it');
  assert.equal(nextRequest(box), null);
  endRequest(box, second);
  assert.equal(box.inFlight, null);
});
