// node --test: the Devil's Grip link (static/grip/grip-link.js) over a fetch the test
// answers by hand: one request in flight at a time, even when the page follows another
// game while a request is on its way.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const requests = [];
globalThis.window = { addEventListener() {}, removeEventListener() {} };
globalThis.fetch = (path, init) => new Promise((resolve) => { requests.push({ path, body: JSON.parse(init.body), resolve }); });

const { createLink } = await import('../../static/grip/grip-link.js');

const record = (number) => ({ number, passes: null, actions: [], redo: [], used_undo: false });
const offlineGame = (number) => ({ id: null, token: null, daily: false, number, passes: null, seq: 0,
  acked: record(number), pending: [], meta: {} });
const ok = (data) => ({ ok: true, status: 200, text: async () => JSON.stringify(data) });
const settle = () => new Promise((resolve) => { setTimeout(resolve, 0); });

test('a deal started while the previous one is being created is created once', async () => {
  const created = [];
  const link = createLink({ save() {}, on: { created: (a) => created.push(a.id), acked() {}, refused() {}, lost() {},
    reachable() {}, matches: () => true } });
  link.follow(offlineGame(1)); // the deal the page starts with
  link.follow(offlineGame(7)); // the player deals #7 at once
  await settle();
  assert.deepEqual(requests.map((r) => [r.path, r.body.number]), [['/api/grip', 1], ['/api/grip', 7]]);
  requests[0].resolve(ok({ id: 'A', token: 'ta', ...record(1), seq: 0 })); // deal 1's answer comes back
  await settle();
  assert.equal(requests.length, 2, 'no second creation of deal 7');
  link.push({ op: 'action', action: { type: 'deal' } });
  await settle();
  assert.equal(requests.length, 2, 'the move waits for the game to exist');
  requests[1].resolve(ok({ id: 'B', token: 'tb', ...record(7), seq: 0 }));
  await settle();
  assert.deepEqual(created, ['B']);
  assert.equal(link.current().id, 'B');
  assert.deepEqual(requests.slice(2).map((r) => [r.path, r.body]),
    [['/api/grip/B/moves', { base: 0, ops: [{ op: 'action', action: { type: 'deal' } }] }]]);
  link.close();
});
