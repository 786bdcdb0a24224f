// node --test: a Demon seat's WebSocket decisions (static/demon/connection/socket-state.js): hello,
// versions and resyncs, close codes, the reconnection backoff, frames, action ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createSocketState, opened, welcomed, snapshotTaken, eventVerdict, startResync, closeOutcome,
  nextReconnectDelay, messagesOf, actionIdOf, relayedHandler, RECONNECT_CODES } from '../../static/demon/connection/socket-state.js';

test('a fresh start says hello with no version and awaits a snapshot', () => {
  const s = createSocketState(undefined, undefined);
  assert.deepEqual(opened(s, 'tok'), { type: 'hello', token: 'tok', v: null, epoch: null });
  assert.equal(s.resyncing, true);
  assert.equal(startResync(s), false, 'no resync while the first snapshot is awaited');
  snapshotTaken(s, 12);
  assert.deepEqual([s.v, s.resyncing], [12, false]);
});

test('a page that was here before says where it left off, and from which server run', () => {
  const s = createSocketState(40, 'run-2');
  assert.deepEqual(opened(s, 'tok'), { type: 'hello', token: 'tok', v: 40, epoch: 'run-2' });
  assert.equal(s.resyncing, false);
});

test('events: the next one is applied, an older one dropped, a gap resynced', () => {
  const s = createSocketState(5, null);
  assert.equal(eventVerdict(s, 6), 'apply');
  assert.equal(s.v, 6);
  assert.equal(eventVerdict(s, 6), 'duplicate');
  assert.equal(eventVerdict(s, 3), 'duplicate');
  assert.equal(eventVerdict(s, 9), 'resync');
  assert.equal(s.v, 6, 'a gap does not move the version');
  assert.equal(eventVerdict(createSocketState(null, null), 1), 'resync', 'no base state yet');
});

test('one resync at a time, until a snapshot answers it', () => {
  const s = createSocketState(5, null);
  assert.equal(startResync(s), true);
  assert.equal(startResync(s), false);
  snapshotTaken(s, 20);
  assert.equal(startResync(s), true);
});

test('a welcome resets the backoff, names the epoch, and asks for a resync when the server is behind', () => {
  const s = createSocketState(30, 'old');
  s.attempt = 4;
  assert.equal(welcomed(s, { v: 30, epoch: 'new' }), false);
  assert.deepEqual([s.attempt, s.welcomed, s.epoch], [0, true, 'new']);
  assert.equal(welcomed(s, { v: 12, epoch: 'new' }), true, 'a restarted server behind us');
  assert.equal(welcomed(s, { epoch: undefined }), false);
  assert.equal(s.epoch, null);
  assert.equal(welcomed(createSocketState(null, null), { v: 0 }), false, 'no version of ours to compare');
});

test('closes: 1001/1006/1012/1013 reconnect, 1013 from a snapshot', () => {
  assert.deepEqual([...RECONNECT_CODES].sort(), [1001, 1006, 1012, 1013]);
  for (const code of [1001, 1006, 1012]) {
    const s = createSocketState(8, null);
    assert.deepEqual(closeOutcome(s, code, ''), { kind: 'reconnect' });
    assert.equal(s.v, 8);
  }
  const s = createSocketState(8, null);
  assert.deepEqual(closeOutcome(s, 1013, ''), { kind: 'reconnect' });
  assert.equal(s.v, null, 'too far behind: start from a snapshot');
});

test('closes: 1000 closed, 1008 denied before the welcome and replaced after it, others lost', () => {
  const s = createSocketState(null, null);
  assert.deepEqual(closeOutcome(s, 1000, ''), { kind: 'status', status: 'closed', detail: 1000 });
  assert.deepEqual(closeOutcome(s, 1008, 'unknown token'), { kind: 'status', status: 'denied', detail: 'unknown token' });
  assert.deepEqual(closeOutcome(s, 1008, ''), { kind: 'status', status: 'denied', detail: 1008 });
  s.welcomed = true;
  assert.deepEqual(closeOutcome(s, 1008, 'opened elsewhere'), { kind: 'status', status: 'replaced', detail: 'opened elsewhere' });
  assert.deepEqual(closeOutcome(s, 1008, ''), { kind: 'status', status: 'replaced', detail: 1008 });
  assert.deepEqual(closeOutcome(s, 1011, 'oops'), { kind: 'status', status: 'lost', detail: 1011 });
});

test('the reconnection delay doubles from 400 ms to 10 s, within its upper half', () => {
  const s = createSocketState(null, null);
  const low = Array.from({ length: 8 }, () => nextReconnectDelay(s, 0));
  assert.deepEqual(low, [200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
  assert.equal(s.attempt, 8);
  s.attempt = 0;
  assert.equal(nextReconnectDelay(s, 0.999999), 400 / 2 + 0.999999 * 200);
  s.attempt = 10;
  assert.ok(nextReconnectDelay(s, 0.5) === 7500);
});

test('a frame carries one JSON object per line; anything else is skipped', () => {
  assert.deepEqual(messagesOf('{"type":"event","v":1}\n{"type":"legal"}'), [{ type: 'event', v: 1 }, { type: 'legal' }]);
  assert.deepEqual(messagesOf('not json\n42\nnull\n"s"\n{"type":"pong"}\n'), [{ type: 'pong' }]);
  assert.deepEqual(messagesOf(''), []);
});

test('messages that are not events go to their handler by type', () => {
  assert.deepEqual(['legal', 'ack', 'rejected', 'error', 'coach', 'race_won', 'emote'].map(relayedHandler),
    ['legal', 'ack', 'rejected', 'error', 'coach', 'raceWon', 'emote']);
  assert.deepEqual(['pong', 'welcome', 'snapshot', 'event', 'newer', undefined].map(relayedHandler),
    [null, null, null, null, null, null]);
});

test('action ids: time, counter and randomness in base 36, at most 40 characters', () => {
  assert.equal(actionIdOf(36 ** 3, 7, 0.5), 'a10007i');
  assert.ok(actionIdOf(Date.now(), 123456789012345678901234567890, Math.random()).length <= 40);
  assert.notEqual(actionIdOf(1000, 1, 0.25), actionIdOf(1000, 2, 0.25));
});
