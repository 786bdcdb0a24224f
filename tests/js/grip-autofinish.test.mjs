// node --test: "Finish" for a Devil's Grip deal certainly won (static/grip/grip-autofinish.js):
// the runner that searches for a winning line in slices right after a move, and the
// player that shows the line one move at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createFinishPlayer, createProofRunner, FINISH_STEP_MS } from '../../static/grip/grip-autofinish.js';

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

// A search of `slices` slices (each yields once) that answers `answer`.
function* fakeSearch(slices, answer, log) {
  for (let i = 0; i < slices; i += 1) { log.push(i); yield; }
  return answer;
}

test('a search runs from the next tick, with no pause, in slices bounded by the clock', () => {
  const timers = manualTimers();
  let clock = 0;
  const runner = createProofRunner({ ...timers, now: () => clock }, 8);
  const log = [];
  let answer = 'none yet';
  // every slice takes 3 ms of the clock: two fit in 8 ms, the third ends the tick
  const search = (function* () { for (const x of fakeSearch(7, ['win'], log)) { clock += 3; yield x; } return ['win']; })();
  runner.start(search, (line) => { answer = line; });
  assert.equal(runner.running(), true);
  assert.deepEqual(log, [], 'nothing runs before the move is drawn');
  assert.equal(timers.tick(), 0, 'no pause: the next tick');
  assert.deepEqual(log, [0, 1, 2]);
  assert.equal(answer, 'none yet');
  assert.equal(timers.tick(), 0);
  assert.equal(timers.tick(), 0);
  assert.deepEqual(answer, ['win']);
  assert.equal(runner.running(), false);
  assert.equal(timers.queue.length, 0);
});

test('a search dropped (the player moved on) never answers; a new one replaces it', () => {
  const timers = manualTimers();
  const runner = createProofRunner({ ...timers, now: () => 0 });
  const answers = [];
  runner.start(fakeSearch(3, ['old'], []), (line) => answers.push(line));
  runner.start(fakeSearch(0, null, []), (line) => answers.push(line));
  assert.equal(timers.cleared.length, 1, 'the first search is dropped');
  timers.tick();
  assert.deepEqual(answers, [null]);
  runner.start(fakeSearch(3, ['x'], []), (line) => answers.push(line));
  runner.stop();
  assert.equal(runner.running(), false);
  assert.equal(timers.queue.length, 0);
  assert.deepEqual(answers, [null]);
});
