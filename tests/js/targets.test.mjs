// node --test: drop targets from the server's legal actions (static/cards/targets.js). The
// browser knows no rule: a target exists exactly when the server listed an action for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { actionFor, demonTargets, firstFoundationPlay, gripTargets, nextRun, resizeRun, sameSelection,
  stockAction } from '../../static/cards/targets.js';

// Demon legal actions as the server sends them in `legal` (docs/protocol.md).
const demonLegal = Object.freeze([
  { type: 'draw' },
  { type: 'tableau', src: 'waste', dst: 2, count: 1 },
  { type: 'tableau', src: 4, dst: 0, count: 3 },
  { type: 'tableau', src: 4, dst: 6, count: 1 },
  { type: 'foundation', src: 'waste', pile: 0 },
  { type: 'foundation', src: 'waste', pile: 5 },
  { type: 'foundation', src: 4, pile: 3 },
]);

test('Demon: a selection has the targets of the actions listed for its source and run length', () => {
  assert.deepEqual([...demonTargets(demonLegal, { src: 'waste', count: 1 }).keys()], ['t:2', 'f:0', 'f:5']);
  assert.deepEqual([...demonTargets(demonLegal, { src: 4, count: 1 }).keys()], ['t:6', 'f:3']);
  assert.deepEqual([...demonTargets(demonLegal, { src: 4, count: 3 }).keys()], ['t:0']);
  assert.deepEqual([...demonTargets(demonLegal, { src: 4, count: 2 }).keys()], []);
  assert.deepEqual([...demonTargets(demonLegal, { src: 1, count: 1 }).keys()], []);
  assert.equal(demonTargets(demonLegal, null).size, 0);
  assert.equal(demonTargets([], { src: 'waste', count: 1 }).size, 0);
});

test('Demon: the action a target sends is the one the server listed', () => {
  const targets = demonTargets(demonLegal, { src: 4, count: 3 });
  assert.deepEqual(actionFor(targets.get('t:0')), { type: 'tableau', src: 4, dst: 0, count: 3 });
  assert.deepEqual(actionFor(demonTargets(demonLegal, { src: 'waste', count: 1 }).get('f:5')),
    { type: 'foundation', src: 'waste', pile: 5 });
  assert.equal(actionFor(targets.get('t:6')), null);
});

test('Demon: a double-click flies to the first listed pile; a run never goes to a foundation', () => {
  assert.equal(firstFoundationPlay(demonLegal, { src: 'waste', count: 1 }).pile, 0);
  assert.equal(firstFoundationPlay(demonLegal, { src: 4, count: 1 }).pile, 3);
  assert.equal(firstFoundationPlay(demonLegal, { src: 4, count: 3 }), null);
  assert.equal(firstFoundationPlay(demonLegal, { src: 2, count: 1 }), null);
  assert.equal(firstFoundationPlay(demonLegal, null), null);
});

test('the stock: draw when listed, else recycle, else nothing', () => {
  assert.deepEqual(stockAction(demonLegal, 'draw', 'recycle'), { type: 'draw' });
  assert.deepEqual(stockAction([{ type: 'recycle' }], 'draw', 'recycle'), { type: 'recycle' });
  assert.equal(stockAction([{ type: 'tableau', src: 0, dst: 1, count: 1 }], 'draw', 'recycle'), null);
  assert.deepEqual(stockAction([{ type: 'redeal' }, { type: 'deal' }], 'deal', 'redeal'), { type: 'deal' });
});

// Devil's Grip legal actions as the server's answer lists them (docs/protocol.md).
const gripLegal = Object.freeze([
  { type: 'deal' },
  { type: 'talon', dst: 9 },
  { type: 'move', src: 3, dst: 11, count: 1 },
  { type: 'move', src: 3, dst: 12, count: 2 },
  { type: 'swap', a: 3, b: 20 },
  { type: 'swap', a: 7, b: 3 },
  { type: 'swap', a: 7, b: 8 },
]);

test('Devil’s Grip: builds for a run of the right length, swaps only for a whole pile', () => {
  const top = gripTargets(gripLegal, { src: 3, count: 1 }, 2);
  assert.deepEqual([...top.keys()], ['c:11']);
  const whole = gripTargets(gripLegal, { src: 3, count: 2 }, 2);
  assert.deepEqual([...whole.keys()].sort(), ['c:12', 'c:20', 'c:7']);
  assert.deepEqual(whole.get('c:12'), { build: { type: 'move', src: 3, dst: 12, count: 2 } });
  assert.deepEqual(whole.get('c:7'), { swap: { type: 'swap', a: 7, b: 3 } });
  assert.deepEqual([...gripTargets(gripLegal, { src: 'talon' }, 0).keys()], ['c:9']);
  assert.equal(gripTargets(gripLegal, { src: 5, count: 1 }, 1).size, 0);
  assert.equal(gripTargets(gripLegal, null, 0).size, 0);
});

test('Devil’s Grip: a target offering both builds, unless Shift asks for the swap', () => {
  const legal = [{ type: 'move', src: 0, dst: 1, count: 1 }, { type: 'swap', a: 0, b: 1 }];
  const entry = gripTargets(legal, { src: 0, count: 1 }, 1).get('c:1');
  assert.equal(actionFor(entry).type, 'move');
  assert.equal(actionFor(entry, { shift: true }).type, 'swap');
  assert.equal(actionFor({ swap: legal[1] }).type, 'swap');
  assert.equal(actionFor(undefined), null);
});

test('keyboard picks: the top card, then a longer run, then round again', () => {
  let sel = nextRun(null, 2, 3);
  assert.deepEqual(sel, { src: 2, count: 1 });
  sel = nextRun(sel, 2, 3);
  sel = nextRun(sel, 2, 3);
  assert.deepEqual(sel, { src: 2, count: 3 });
  assert.deepEqual(nextRun(sel, 2, 3), { src: 2, count: 1 });
  assert.deepEqual(nextRun(sel, 5, 4), { src: 5, count: 1 });
  assert.equal(nextRun(sel, 6, 0), null);
  assert.deepEqual(resizeRun({ src: 1, count: 2 }, 1, 2), { src: 1, count: 2 });
  assert.deepEqual(resizeRun({ src: 1, count: 1 }, -1, 4), { src: 1, count: 1 });
  assert.deepEqual(resizeRun({ src: 1, count: 1 }, 1, 4), { src: 1, count: 2 });
});

test('two selections are the same when source and run length are', () => {
  assert.equal(sameSelection({ src: 'talon' }, { src: 'talon' }), true);
  assert.equal(sameSelection({ src: 3, count: 1 }, { src: 3, count: 2 }), false);
  assert.equal(sameSelection({ src: 3, count: 1 }, null), false);
});
