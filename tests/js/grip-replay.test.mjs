// node --test: stepping through a certified deal's solution (static/grip/grip-replay.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createReplay } from '../../static/grip/grip-replay.js';

const solution = { initial: { n: 0 }, steps: [1, 2, 3].map((n) => ({ action: { type: 'deal' }, state: { n } })) };

test('steps by hand stay within the solution', () => {
  let drawn = 0;
  const replay = createReplay(() => { drawn += 1; });
  assert.equal(replay.current(), null);
  replay.start(solution);
  assert.equal(replay.current().i, 0);
  replay.prev();
  assert.equal(replay.current().i, 0);
  replay.next();
  replay.next();
  replay.next();
  replay.next();
  assert.equal(replay.current().i, 3);
  assert.equal(drawn, 5);
  replay.stop();
  assert.equal(replay.current(), null);
});

// A hand-made clock for setInterval/clearInterval (Node 20's mock timers keep running an
// interval that clears itself from its own callback, which is what the replay does).
function fakeIntervals() {
  const saved = [globalThis.setInterval, globalThis.clearInterval];
  const timers = new Map();
  let next = 1;
  let now = 0;
  globalThis.setInterval = (fn, ms) => { timers.set(next, { fn, ms, at: now + ms }); return next++; };
  globalThis.clearInterval = (id) => { timers.delete(id); };
  return {
    tick(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.at += due.ms;
        due.fn();
      }
      now = end;
    },
    restore() { [globalThis.setInterval, globalThis.clearInterval] = saved; },
  };
}

test('playing steps every 600 ms, stops at the end, and starts again from the deal', () => {
  const clock = fakeIntervals();
  try {
    const replay = createReplay(() => {});
    replay.start(solution);
    replay.toggle();
    assert.ok(replay.current().timer);
    clock.tick(600);
    assert.equal(replay.current().i, 1);
    clock.tick(1200);
    assert.equal(replay.current().i, 3);
    assert.equal(replay.current().timer, null, 'paused at the last step');
    replay.toggle();
    assert.equal(replay.current().i, 0);
    clock.tick(600);
    replay.toggle(); // pause
    clock.tick(1800);
    assert.equal(replay.current().i, 1);
    replay.stop();
  } finally {
    clock.restore();
  }
});
