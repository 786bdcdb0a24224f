// node --test: a Devil's Grip game watched again: the positions the viewer
// makes from a record (static/replay/grip-replay-model.js), its pace, the recent games'
// words (static/grip/grip-recent.js), and the games this browser keeps with their tokens
// (static/common/storage.js, over a localStorage kept in a Map).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const kept = new Map();
globalThis.window = { localStorage: {
  getItem: (k) => (kept.has(k) ? kept.get(k) : null),
  setItem: (k, v) => { kept.set(k, String(v)); },
  removeItem: (k) => { kept.delete(k); },
} };

const { gripPositions, gripDelayMs, endsAsServer, outcomeOf, STEP_S } = await import('../../static/replay/grip-replay-model.js');
const { newGame, play, current, viewOf } = await import('../../static/grip/grip-local.js');
const { recentText } = await import('../../static/grip/grip-recent.js');
const storage = await import('../../static/common/storage.js');
const { IllegalAction } = await import('../../static/grip/grip-rules.js');

const solution = JSON.parse(fs.readFileSync(new URL('./fixtures/grip-deal3-solution.json', import.meta.url)));
const record = { number: solution.number, passes: solution.passes, actions: solution.line };

test('a won game replays from its deal, one position per move, to the won grid', () => {
  const { views, actions } = gripPositions(record);
  assert.equal(views.length, record.actions.length + 1);
  assert.deepEqual(views[0], viewOf(current(newGame(3, null))));
  assert.equal(views[views.length - 1].won, true);
  assert.equal(outcomeOf(views[views.length - 1]), 'won');
  // every position is the one the page's game reaches after as many moves
  let game = newGame(3, null);
  for (let i = 0; i < 20; i++) {
    game = play(game, { op: 'action', action: actions[i] });
    assert.deepEqual(views[i + 1], viewOf(current(game)), `after move ${i + 1}`);
  }
});

test('the last position is checked against the view the server ended on', () => {
  const positions = gripPositions(record);
  assert.equal(endsAsServer(positions, positions.views[positions.views.length - 1]), true);
  assert.equal(endsAsServer(positions, positions.views[positions.views.length - 2]), false);
});

test('a record that does not replay is refused, not shown', () => {
  assert.throws(() => gripPositions({ number: 3, passes: null, actions: [{ type: 'move', src: 0, dst: 0, count: 1 }] }), IllegalAction);
});

test('an ended or a left game says so; the pace is steady and scales with the speed', () => {
  const ended = gripPositions({ number: 4242, passes: 3, actions: [{ type: 'deal' }, { type: 'end' }] });
  assert.equal(outcomeOf(ended.views[2]), 'over');
  assert.equal(outcomeOf(ended.views[1]), 'left');
  assert.equal(gripDelayMs(0, 3, 1), STEP_S * 1000);
  assert.equal(gripDelayMs(0, 3, 8), (STEP_S * 1000) / 8);
  assert.equal(gripDelayMs(1, 3, 0.5), STEP_S * 2000);
  assert.equal(gripDelayMs(2, 3, 1), null, 'nothing after the last position');
});

test('the recent games in words', () => {
  const tr = (key, p) => `${key} ${JSON.stringify(p)}`;
  assert.equal(recentText({ number: 7, over: true, won: true, score: 0 }, tr), 'gripReplay.recentWon {"n":7,"score":0}');
  assert.equal(recentText({ number: 7, over: true, won: false, score: 12 }, tr), 'gripReplay.recentOver {"n":7,"score":12}');
  assert.equal(recentText({ number: 7, over: false, won: false, score: null }, tr), 'gripReplay.recentLeft {"n":7}');
});

test('the browser keeps each game it played with its token: left ones, then finished ones', () => {
  kept.clear();
  const acked = (n) => ({ number: 1, passes: 3, actions: Array(n).fill({ type: 'deal' }), redo: [], used_undo: false });
  storage.setGripGame({ id: 'g1', token: 't1', number: 1, passes: 3, acked: acked(2), pending: [] });
  storage.setGripGame({ id: 'g1', token: 't1', number: 1, passes: 3, acked: acked(3), pending: [] });
  assert.deepEqual(storage.listGripPlayed(), [], 'the game in progress is not in the list');
  // a game nobody moved in is not kept; one with a move the server has is, as left
  storage.setGripGame({ id: 'g2', token: 't2', number: 2, passes: null, acked: acked(0), pending: [] });
  storage.setGripGame({ id: null, token: null, number: 5, passes: null, acked: acked(0), pending: [] });
  assert.deepEqual(storage.listGripPlayed().map((g) => [g.id, g.token, g.over]), [['g1', 't1', false]]);
  // a game counted in the statistics is kept as finished, with its score, newest first
  storage.setGripGame({ id: 'g3', token: 't3', number: 9, passes: 1, daily: true, acked: acked(4), pending: [] });
  storage.recordGripResult({ id: 'g3', passes: 1, score: 4, won: false, assisted: false, par: null });
  const [first, second] = storage.listGripPlayed();
  assert.deepEqual([first.id, first.token, first.number, first.over, first.score, first.daily], ['g3', 't3', 9, true, 4, true]);
  assert.equal(second.id, 'g1');
  // leaving a finished game does not turn it into a left one
  storage.setGripGame({ id: 'g4', token: 't4', number: 10, passes: 1, acked: acked(0), pending: [] });
  assert.equal(storage.listGripPlayed()[0].over, true);
  // at most 30 are kept
  for (let i = 0; i < 40; i++) {
    storage.setGripGame({ id: `x${i}`, token: `tx${i}`, number: i, passes: 1, acked: acked(1), pending: [] });
  }
  assert.equal(storage.listGripPlayed().length, 30);
});
