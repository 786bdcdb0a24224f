// node --test: "Finish" for a Devil's Grip deal certainly won (static/grip/grip-autofinish.js):
// when the page looks for a winning line, and the player that shows it one move at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { worthProving, createFinishPlayer, FINISH_MAX_SCORE, FINISH_STEP_MS } from '../../static/grip/grip-autofinish.js';

test('a winning line is looked for near the end only, in a deal not ended', () => {
  const cards = (n) => Array(n).fill('x');
  assert.equal(FINISH_MAX_SCORE, 24);
  assert.equal(worthProving({ ended: false, stock: cards(20), talon: cards(4) }), true);
  assert.equal(worthProving({ ended: false, stock: cards(21), talon: cards(4) }), false);
  assert.equal(worthProving({ ended: true, stock: [], talon: [] }), false);
  assert.equal(worthProving(null), false);
});

// Timers the test runs by hand: each entry is [fn, ms].
function manualTimers() {
  const timers = { queue: [], cleared: [] };
  timers.setTimer = (fn, ms) => { const t = { fn, ms }; timers.queue.push(t); return t; };
  timers.clearTimer = (t) => { timers.cleared.push(t); timers.queue = timers.queue.filter((x) => x !== t); };
  timers.tick = () => { const t = timers.queue.shift(); t.fn(); return t.ms; };
  return timers;
}

test('a line plays from the next tick, one move every step, and ends', () => {
  const timers = manualTimers();
  const player = createFinishPlayer(timers);
  const played = [];
  let changes = 0;
  let playingDuringPlay = null;
  player.start(['a', 'b'], {
    play: (action) => { playingDuringPlay = player.playing(); played.push(action); return true; },
    alive: () => true,
    changed: () => { changes += 1; },
  });
  assert.equal(player.playing(), true);
  assert.deepEqual(played, []);
  assert.equal(timers.tick(), 0);
  assert.deepEqual(played, ['a']);
  assert.equal(playingDuringPlay, false, 'the move is played as the page\'s own');
  assert.equal(timers.tick(), FINISH_STEP_MS);
  assert.deepEqual(played, ['a', 'b']);
  assert.equal(player.playing(), true, 'one more step to see the line is done');
  timers.tick();
  assert.equal(player.playing(), false);
  assert.equal(changes, 3);
  assert.equal(timers.queue.length, 0);
});

test('an illegal move stops the line', () => {
  const timers = manualTimers();
  const player = createFinishPlayer(timers);
  const played = [];
  player.start(['a', 'b', 'c'], { play: (a) => { played.push(a); return a !== 'b'; }, alive: () => true, changed() {} });
  timers.tick();
  timers.tick();
  assert.deepEqual(played, ['a', 'b']);
  assert.equal(player.playing(), false);
  assert.equal(timers.queue.length, 0);
});

test('a page gone stops the line; stop() cancels the next move', () => {
  const timers = manualTimers();
  const player = createFinishPlayer(timers);
  const played = [];
  let alive = true;
  player.start(['a', 'b'], { play: (a) => { played.push(a); return true; }, alive: () => alive, changed() {} });
  timers.tick();
  alive = false;
  timers.tick();
  assert.deepEqual(played, ['a']);
  assert.equal(player.playing(), false);

  player.start(['x', 'y'], { play: (a) => { played.push(a); return true; }, alive: () => true, changed() {} });
  const next = timers.queue[0];
  player.stop();
  assert.deepEqual(timers.cleared, [next]);
  assert.equal(player.playing(), false);
  assert.equal(timers.queue.length, 0);
  player.stop(); // nothing to stop
  assert.equal(timers.cleared.length, 1);
});
