// node --test: the Devil's Grip game kept on the page (static/grip/grip-local.js) and the
// auto-finish proof (static/grip/grip-finish.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

import { newGame, fromRecord, play, current, recordOf, sameRecord, viewOf, answerOf, dailyDealNumber,
  randomDealNumber } from '../../static/grip/grip-local.js';
import { winningLine, orderKnown, searchWinningLine, lineAfter, FINISH_SLICE } from '../../static/grip/grip-finish.js';
import { apply, legalActions, won, score, deal, fromLayout, IllegalAction } from '../../static/grip/grip-rules.js';

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

test('auto-finish: the win is proven as soon as the order is known, far from the end', () => {
  // The fixture's deal (unlimited passes): the first position where the player knows
  // the stock's order still has most of the cards out; the win is proven there already.
  let state = current(newGame(solution.number, solution.passes));
  let i = 0;
  while (!orderKnown(state)) state = apply(state, solution.line[i++]);
  assert.ok(score(state) > 40, `${score(state)} cards out`);
  const line = winningLine(state);
  assert.ok(line, 'proven');
  let s = state;
  for (const action of line) s = apply(s, action);
  assert.ok(won(s), 'and the line found wins, played through the rules');
});

test('auto-finish: with a pass limit, the pass-limit move orders prove the win', () => {
  // The fixture's position after a redeal with three more still to come, as a deal with
  // exactly three passes left: the line found must live within them.
  let state = current(newGame(solution.number, solution.passes));
  const redeals = solution.line.map((a, i) => (a.type === 'redeal' ? i : -1)).filter((i) => i >= 0);
  const at = redeals[redeals.length - 4];
  for (const action of solution.line.slice(0, at + 1)) state = apply(state, action);
  const allowed = state.passes_used + 3;
  const limited = fromLayout(state.grid.map((p) => p.join(' ')), state.stock, state.talon, allowed, state.passes_used);
  assert.ok(score(limited) > 20, `${score(limited)} cards out`);
  const line = winningLine(limited);
  assert.ok(line, 'proven');
  let s = limited;
  for (const action of line) s = apply(s, action);
  assert.ok(won(s) && s.passes_used <= allowed);
});

test('auto-finish: the search runs in slices (a generator) and answers as the whole search does', () => {
  let state = current(newGame(solution.number, solution.passes));
  let i = 0;
  while (!orderKnown(state)) state = apply(state, solution.line[i++]);
  const search = searchWinningLine(state);
  let slices = 0;
  let step = search.next();
  while (!step.done) { slices += 1; step = search.next(); }
  assert.deepEqual(step.value, winningLine(state));
  assert.ok(FINISH_SLICE > 0);
  // a search that must give up yields many times before it does (never one long block)
  let lost = deal(1, 3);
  while (lost.stock.length) lost = apply(lost, { type: 'deal' });
  lost = apply(lost, { type: 'redeal' });
  const long = searchWinningLine(lost, 3000);
  let yields = 0;
  for (let r = long.next(); !r.done; r = long.next()) yields += 1;
  assert.ok(yields >= 3000 / FINISH_SLICE / 2, `${yields} yields`);
});

test('auto-finish: a proven line still holds after its first action, not after another move', () => {
  let state = current(newGame(solution.number, solution.passes));
  let i = 0;
  while (!orderKnown(state)) state = apply(state, solution.line[i++]);
  const line = winningLine(state);
  const after = apply(state, line[0]);
  assert.deepEqual(lineAfter(state, line, after), line.slice(1));
  const other = legalActions(state, { swaps: true }).find((a) => a.type === 'swap');
  assert.equal(lineAfter(state, line, apply(state, other)), null);
  assert.equal(lineAfter(state, [], state), null);
});
