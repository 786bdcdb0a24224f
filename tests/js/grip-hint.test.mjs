// node --test: asking the server for a Devil's Grip hint (static/grip/sync/grip-hint.js): the
// pacing to the server's budget, a position left meanwhile, the link not settled, failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createHintPacer, requestHint, hintFailure, HINT_SPACING_MS } from '../../static/grip/sync/grip-hint.js';

// A clock the test moves, and a sleep that moves it.
function fakeClock(start = 1000) {
  const clock = { now: start, slept: [] };
  clock.read = () => clock.now;
  clock.sleep = async (ms) => { clock.slept.push(ms); clock.now += ms; };
  return clock;
}

test('hints are spaced 250 ms apart: 4 a second, the server\'s default budget', () => {
  assert.equal(HINT_SPACING_MS, 250);
  const clock = fakeClock();
  const pacer = createHintPacer(clock.read);
  assert.ok(pacer.wait() <= 0, 'the first one goes at once');
  pacer.sent();
  assert.equal(pacer.wait(), 250);
  clock.now += 100;
  assert.equal(pacer.wait(), 150);
  clock.now += 200;
  assert.ok(pacer.wait() <= 0);
  assert.equal(createHintPacer(clock.read, 40).wait() <= 0, true);
});

test('a hint asked twice in a row waits out the spacing, then asks', async () => {
  const clock = fakeClock();
  const pacer = createHintPacer(clock.read);
  const how = { idle: async () => true, stillAsked: () => true, pacer, sleep: clock.sleep };
  let asked = 0;
  const first = await requestHint({ ...how, ask: async () => { asked += 1; return { hint: 1 }; } });
  assert.deepEqual(first, { kind: 'answer', answer: { hint: 1 } });
  clock.now += 50;
  const second = await requestHint({ ...how, ask: async () => { asked += 1; return { hint: 2 }; } });
  assert.deepEqual(second, { kind: 'answer', answer: { hint: 2 } });
  assert.deepEqual(clock.slept, [200]);
  assert.equal(asked, 2);
});

test('the link settles first; unsent operations mean no hint', async () => {
  const order = [];
  const clock = fakeClock();
  const outcome = await requestHint({
    idle: async () => { order.push('idle'); return false; },
    stillAsked: () => true,
    pacer: createHintPacer(clock.read),
    sleep: clock.sleep,
    ask: async () => { order.push('ask'); return {}; },
  });
  assert.deepEqual(outcome, { kind: 'unsent' });
  assert.deepEqual(order, ['idle']);
});

test('a position left meanwhile gets no hint: after the link, the wait or the answer', async () => {
  for (const leaveAt of ['idle', 'sleep', 'ask']) {
    const clock = fakeClock();
    const pacer = createHintPacer(clock.read);
    pacer.sent(); // so that this request must wait
    let here = true;
    let asked = false;
    const outcome = await requestHint({
      idle: async () => { if (leaveAt === 'idle') here = false; return true; },
      stillAsked: () => here,
      pacer,
      sleep: async (ms) => { if (leaveAt === 'sleep') here = false; await clock.sleep(ms); },
      ask: async () => { asked = true; if (leaveAt === 'ask') here = false; return { hint: 1 }; },
    });
    assert.deepEqual(outcome, { kind: 'stale' }, leaveAt);
    assert.equal(asked, leaveAt === 'ask', leaveAt);
  }
});

test('stale wins over unsent: a position left while the link settled says nothing', async () => {
  const outcome = await requestHint({ idle: async () => false, stillAsked: () => false,
    pacer: createHintPacer(() => 0), sleep: async () => {}, ask: async () => ({}) });
  assert.deepEqual(outcome, { kind: 'stale' });
});

test('a failed request is reported with its error, and still counts for the pacing', async () => {
  const clock = fakeClock();
  const pacer = createHintPacer(clock.read);
  const error = { status: 503, detail: 'busy' };
  let here = true;
  const outcome = await requestHint({ idle: async () => true, stillAsked: () => here, pacer, sleep: clock.sleep,
    ask: async () => { here = false; throw error; } });
  assert.deepEqual(outcome, { kind: 'failed', error }, 'reported even for a position left: the page decides');
  assert.equal(pacer.wait(), 250);
});

test('what a failure means: 409 quiet, 0 offline, 503 busy, the rest the server\'s reason', () => {
  assert.deepEqual([409, 0, 503, 429, 400, 500].map(hintFailure), ['quiet', 'offline', 'busy', 'error', 'error', 'error']);
});
