// node --test: the Devil's Grip game kept on the page (static/grip/grip-local.js) and the
// auto-finish proof (static/grip/grip-finish.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

import { newGame, fromRecord, play, current, recordOf, sameRecord, viewOf, answerOf, dailyDealNumber,
  randomDealNumber } from '../../static/grip/grip-local.js';
import { winningLine, orderKnown } from '../../static/grip/grip-finish.js';
import { apply, legalActions, won, IllegalAction } from '../../static/grip/grip-rules.js';

const solution = JSON.parse(fs.readFileSync(new URL('./fixtures/grip-deal3-solution.json', import.meta.url)));

test('undo, redo and a new action keep the history as the server keeps it', () => {
  let g = newGame(4242, 3);
  const [a, b] = legalActions(current(g), { swaps: false });
  g = play(g, { op: 'action', action: a });
  const afterA = current(g);
  g = play(g, { op: 'action', action: b });
  g = play(g, { op: 'undo' });
  assert.equal(current(g), afterA, 'undo returns the very state');
  assert.deepEqual(recordOf(g), { number: 4242, passes: 3, actions: [a], redo: [b], used_undo: true });
  const redone = play(g, { op: 'redo' });
  assert.deepEqual(recordOf(redone).actions, [a, b]);
  assert.deepEqual(recordOf(redone).redo, []);
  const other = play(g, { op: 'end' });
  assert.deepEqual(recordOf(other).redo, [], 'a new action clears the redo stack');
  assert.equal(current(other).ended, true);
  assert.throws(() => play(other, { op: 'action', action: a }), IllegalAction);
  assert.throws(() => play(newGame(1, null), { op: 'undo' }), IllegalAction);
  assert.throws(() => play(newGame(1, null), { op: 'redo' }), IllegalAction);
  assert.throws(() => play(newGame(1, null), { op: 'hint' }), IllegalAction);
});

test('play never changes the game it was given', () => {
  const g = newGame(7, null);
  const copy = JSON.stringify(recordOf(g));
  play(g, { op: 'action', action: { type: 'deal' } });
  assert.equal(JSON.stringify(recordOf(g)), copy);
});

test('a record rebuilds the same game, and a record that does not replay is refused', () => {
  let g = newGame(99, null);
  for (const op of [{ op: 'action', action: { type: 'deal' } }, { op: 'action', action: { type: 'deal' } }, { op: 'undo' }]) {
    g = play(g, op);
  }
  const again = fromRecord(recordOf(g));
  assert.ok(sameRecord(recordOf(again), recordOf(g)));
  assert.deepEqual(viewOf(current(again)), viewOf(current(g)));
  assert.throws(() => fromRecord({ ...recordOf(g), actions: [{ type: 'redeal' }] }), IllegalAction);
  assert.throws(() => fromRecord({ ...recordOf(g), redo: [{ type: 'redeal' }] }), IllegalAction);
  assert.ok(!sameRecord(recordOf(g), { ...recordOf(g), used_undo: false }));
});

test('the view has the server view keys, in order, and no stock order', () => {
  const v = viewOf(current(newGame(5, 1)));
  assert.deepEqual(Object.keys(v), ['grid', 'stock', 'talon', 'talon_count', 'passes_allowed', 'passes_used',
    'can_redeal', 'score', 'rating', 'ended', 'over', 'won']);
  assert.equal(v.stock, 72);
  assert.equal(v.score, 72);
  const answer = answerOf(newGame(5, 1), { id: 'x', par: 3 });
  assert.equal(answer.id, 'x');
  assert.equal(answer.par, 3);
  assert.equal(answer.can_undo, false);
  assert.ok(answer.legal.length > 0);
});

test('the daily deal number is the server one (values from app.grip.rules.daily_deal_number)', () => {
  assert.equal(dailyDealNumber(2026, 12, 3), 219665773);
  assert.equal(dailyDealNumber(2000, 1, 1), 949823713);
  assert.equal(randomDealNumber(() => [0]), 1);
  assert.equal(randomDealNumber(() => [4294967295]), (4294967295 % 1000000000) + 1);
});

test('auto-finish: never before the stock order is known, and a proven line wins', () => {
  let state = current(newGame(solution.number, solution.passes));
  assert.equal(orderKnown(state), false);
  assert.equal(winningLine(state), null, 'the first pass: the player does not know the order');
  let proven = null;
  for (const action of solution.line) {
    state = apply(state, action);
    if (!proven && !state.ended && orderKnown(state)) {
      const line = winningLine(state);
      if (line) proven = { state, line };
    }
  }
  assert.ok(won(state), 'the fixture is a winning line');
  assert.ok(proven, 'near the end of a won deal the rules prove the win');
  let s = proven.state;
  for (const action of proven.line) s = apply(s, action);
  assert.ok(won(s), 'and the line found wins');
});

test('auto-finish: a lost position is not offered', () => {
  // every card has been through the stock; nothing can come in: no line
  let g = newGame(11, 1);
  while (!current(g).ended) g = play(g, { op: 'action', action: legalActions(current(g), { swaps: false }).find((a) => a.type === 'deal') || { type: 'end' } });
  assert.equal(winningLine(current(g)), null);
});
