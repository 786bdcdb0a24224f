// node --test: the first-round guide's model (static/guide/guide-model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { STEPS, newGuide, isOn, ask, advise, moved, finish, sameAction, isLegal, gripMarks, demonMarks,
  chainText, gripWhy, demonWhy, isPracticeTable } from '../../static/guide/guide-model.js';

const t = (key, vars) => `${key}${vars ? JSON.stringify(vars) : ''}`;
const card = (c) => `<${c}>`;
const rank = (r) => (r === 'T' ? '10' : r);

test('a guide goes intro, ask, point, and lets go after its steps', () => {
  let g = newGuide('grip');
  assert.equal(g.phase, 'intro');
  assert.ok(isOn(g));
  g = ask(g);
  assert.equal(g.phase, 'ask');
  const advice = { action: { type: 'deal' }, why: { kind: 'deal' } };
  g = advise(g, advice);
  assert.equal(g.phase, 'point');
  assert.equal(g.advice, advice);
  assert.equal(advise(g, advice), g, 'advice only lands while asking');
  for (let i = 1; i < STEPS.grip; i++) {
    g = moved(g);
    assert.equal(g.phase, 'ask', `after move ${i}`);
    assert.equal(g.step, i);
    g = advise(g, advice);
  }
  g = moved(g);
  assert.equal(g.phase, 'done');
  assert.equal(g.step, STEPS.grip);
  assert.equal(ask(g), g, 'a finished guide asks nothing more');
  g = finish(g);
  assert.equal(g.phase, 'off');
  assert.ok(!isOn(g));
  assert.equal(moved(g), g);
});

test('no advice ends the guide; a reason without a move is still shown', () => {
  assert.equal(advise(ask(newGuide('grip')), null).phase, 'done');
  assert.equal(advise(ask(newGuide('grip')), { action: null, why: null }).phase, 'done');
  const stuck = advise(ask(newGuide('demon')), { action: null, why: { kind: 'stuck' } });
  assert.equal(stuck.phase, 'point');
  assert.equal(stuck.advice.why.kind, 'stuck');
});

test('an action is legal only when the server listed the same one', () => {
  const legal = [{ type: 'draw' }, { type: 'foundation', src: 3, pile: 1 }, { type: 'tableau', src: 'waste', dst: 2, count: 1 }];
  assert.ok(isLegal({ type: 'foundation', src: 3, pile: 1 }, legal));
  assert.ok(!isLegal({ type: 'foundation', src: 3, pile: 2 }, legal));
  assert.ok(!isLegal({ type: 'foundation', src: 3 }, legal));
  assert.ok(!isLegal(null, legal));
  assert.ok(sameAction({ type: 'draw', x: null }, { type: 'draw' }));
});

test('what a grip hint points at: the page\'s own marks', () => {
  assert.deepEqual(gripMarks({ type: 'talon', dst: 5 }), { src: '#grip-talon', dst: '[data-target="c:5"]' });
  assert.deepEqual(gripMarks({ type: 'move', src: 1, dst: 9, count: 2 }), { src: '[data-target="c:1"]', dst: '[data-target="c:9"]' });
  assert.deepEqual(gripMarks({ type: 'swap', a: 0, b: 23 }), { src: '[data-target="c:0"]', dst: '[data-target="c:23"]' });
  assert.deepEqual(gripMarks({ type: 'redeal' }), { src: '#grip-stock', dst: null });
  assert.deepEqual(gripMarks(null), { src: null, dst: null });
});

test('what a Demon coach points at: the run\'s first card and the pile it goes to', () => {
  const me = { tableau: [{ down: 2, up: ['9S', '8H', '7C'] }, { down: 0, up: [] }], waste: ['4D'] };
  assert.deepEqual(demonMarks({ type: 'tableau', src: 0, dst: 1, count: 2 }, me),
    { src: '[data-pick="t:0:1"]', dst: '[data-target="t:1"]' });
  assert.deepEqual(demonMarks({ type: 'foundation', src: 0, pile: 4 }, me),
    { src: '[data-pick="t:0:2"]', dst: '[data-target="f:4"]' });
  assert.deepEqual(demonMarks({ type: 'foundation', src: 'waste', pile: 0 }, me),
    { src: '[data-pick="w"]', dst: '[data-target="f:0"]' });
  assert.deepEqual(demonMarks({ type: 'draw' }, me), { src: '#stock', dst: null });
  assert.deepEqual(demonMarks(null, me, { kind: 'stuck' }), { src: '#vote-end', dst: null });
  assert.deepEqual(demonMarks(null, me, { kind: 'wait' }), { src: null, dst: null });
});

test('a grip reason in words, with the chain as the page labels ranks', () => {
  assert.equal(chainText(0, rank), '2-5-8-J');
  assert.equal(chainText(2, rank), '4-7-10-K');
  assert.equal(gripWhy({ kind: 'talon', card: '5S', onto: '2S', chain: 0 }, t, card, rank),
    'guide.grip.talon{"card":"<5S>","onto":"<2S>","chain":"2-5-8-J","under":""}');
  assert.match(gripWhy({ kind: 'whole', card: '6H', onto: '3H', chain: 1, refill: 'talon' }, t, card, rank), /^guide\.grip\.wholeTalon/);
  assert.match(gripWhy({ kind: 'whole', card: '6H', onto: '3H', chain: 1, refill: 'stock' }, t, card, rank), /^guide\.grip\.whole\{/);
  assert.match(gripWhy({ kind: 'part', card: '5C', onto: '2C', chain: 0, under: '2C' }, t, card, rank), /"under":"<2C>"/);
  assert.equal(gripWhy({ kind: 'deal' }, t, card, rank), 'guide.grip.deal');
  assert.equal(gripWhy(null, t, card, rank), 'guide.noMove');
});

test('a Demon reason in words, one sentence per kind', () => {
  assert.equal(demonWhy({ kind: 'ace', card: 'AH' }, t, card), 'guide.demon.ace{"card":"<AH>","onto":"","under":""}');
  assert.match(demonWhy({ kind: 'home', card: '3H', onto: '2H' }, t, card), /^guide\.demon\.homeOnto/);
  assert.match(demonWhy({ kind: 'home', card: '3H', onto: '2H', uncover: true }, t, card), /^guide\.demon\.homeUp/);
  assert.match(demonWhy({ kind: 'uncover', card: 'KS' }, t, card), /^guide\.demon\.uncoverKing/);
  assert.match(demonWhy({ kind: 'uncover', card: '7S', onto: '8H' }, t, card), /^guide\.demon\.uncover\{/);
  assert.match(demonWhy({ kind: 'waste', card: 'KC' }, t, card), /^guide\.demon\.wasteKing/);
  assert.match(demonWhy({ kind: 'free', card: '7S', onto: '8H', under: '2D' }, t, card), /"under":"<2D>"/);
  for (const kind of ['draw', 'recycle', 'stuck', 'wait']) assert.equal(demonWhy({ kind }, t, card), `guide.demon.${kind}`);
});

test('a practice table: the player is seated and every other seat is a bot', () => {
  const players = (...bots) => bots.map((bot, seat) => ({ id: `p${seat}`, seat, bot }));
  assert.ok(isPracticeTable({ players: players(null, 'easy') }, 0));
  assert.ok(isPracticeTable({ players: [...players(null, 'easy', 'hard'), { id: 'w', seat: null, bot: null }] }, 0));
  assert.ok(!isPracticeTable({ players: players(null, null) }, 0));
  assert.ok(!isPracticeTable({ players: players(null, 'easy') }, 1), 'a bot\'s seat is not the player\'s');
  assert.ok(!isPracticeTable({ players: players(null, 'easy') }, null));
  assert.ok(!isPracticeTable(null, 0));
});
