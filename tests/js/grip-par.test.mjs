// node --test: fetching a Devil's Grip game's par (static/grip/sync/grip-par.js): retries while
// the server is busy, rate-limited or out of reach, waiting longer each time; giving up.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { fetchPar, parRetryDelay, parRetryable, PAR_ATTEMPTS } from '../../static/grip/sync/grip-par.js';

const failing = (...statuses) => {
  const calls = { n: 0 };
  calls.ask = async () => {
    const status = statuses[calls.n];
    calls.n += 1;
    if (status === undefined) return { par: 42 };
    throw { status };
  };
  return calls;
};

function run(ask, { following = () => true, wanted = () => true } = {}) {
  const slept = [];
  const done = fetchPar({ ask, following, wanted, sleep: async (ms) => { slept.push(ms); } });
  return done.then((outcome) => ({ outcome, slept }));
}

test('the retry waits grow 2 s at a time; 503, 429 and no connection are retried', () => {
  assert.deepEqual([0, 1, 2, 5].map(parRetryDelay), [2000, 4000, 6000, 12000]);
  assert.deepEqual([503, 429, 0, 500, 404, 401].map(parRetryable), [true, true, true, false, false, false]);
});

test('the par at the first answer', async () => {
  const calls = failing();
  assert.deepEqual(await run(calls.ask), { outcome: { kind: 'par', par: 42 }, slept: [] });
});

test('busy, then rate-limited, then out of reach, then the par', async () => {
  const calls = failing(503, 429, 0);
  const { outcome, slept } = await run(calls.ask);
  assert.deepEqual(outcome, { kind: 'par', par: 42 });
  assert.deepEqual(slept, [2000, 4000, 6000]);
  assert.equal(calls.n, 4);
});

test('six tries at most, then it failed', async () => {
  assert.equal(PAR_ATTEMPTS, 6);
  const calls = failing(...Array(10).fill(503));
  const { outcome, slept } = await run(calls.ask);
  assert.deepEqual(outcome, { kind: 'failed' });
  assert.equal(calls.n, 6);
  assert.deepEqual(slept, [2000, 4000, 6000, 8000, 10000, 12000]);
});

test('an answer that is not worth retrying fails at once', async () => {
  const calls = failing(404);
  assert.deepEqual(await run(calls.ask), { outcome: { kind: 'failed' }, slept: [] });
});

test('a game no longer followed: no request, or its answer dropped', async () => {
  const calls = failing();
  assert.deepEqual((await run(calls.ask, { following: () => false })).outcome, { kind: 'gone' });
  assert.equal(calls.n, 0);
  assert.deepEqual((await run(failing().ask, { wanted: () => false })).outcome, { kind: 'gone' }, 'the answer came too late');
});

test('a game left during a wait is not asked again', async () => {
  let following = true;
  const calls = failing(503, 503);
  const slept = [];
  const outcome = await fetchPar({ ask: calls.ask, following: () => following, wanted: () => following,
    sleep: async (ms) => { slept.push(ms); following = false; } });
  assert.deepEqual(outcome, { kind: 'gone' });
  assert.equal(calls.n, 1);
});
