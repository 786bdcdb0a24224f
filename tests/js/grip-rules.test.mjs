// node --test: Devil's Grip's rules in the browser (static/grip/grip-rules.js), rule by
// rule (docs/numbered-rules.md, "Devil's Grip"). The expected deals and generator values
// were printed once by the Python engine (app/common/rng.py, app/grip/rules); the whole
// engine is held to Python by tests/engine/test_grip_js_differential.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  CELLS, SplitMix64, deriveSeed, gripDeck, dealCards, deal, fromLayout, fits, chainOf, isChain, parseCard,
  legalActions, apply, isOver, score, rating, won, canRedeal, talonShowable, arranged, parseAction, cellName,
  IllegalAction, GameOver,
} from '../../static/grip/grip-rules.js';

// 24 cells of kings and queens, on which nothing the tests use can go (no tens or nines
// in the test piles), with `cells` put in place: {cell: "5S 8S"}. Cells 22 and 23 hold
// 2C and 5C, a whole pile that fits on another, so that a position is not over by rule
// 10 just because the test's own cards cannot bring a card in.
const FILLER = ['KS', 'KH', 'KD', 'KC', 'QS', 'QH', 'QD', 'QC'];
const KEEP_ALIVE = { 22: '2C', 23: '5C' };
function layout(cells = {}, keepAlive = true) {
  const all = keepAlive ? { ...KEEP_ALIVE, ...cells } : cells;
  return Array.from({ length: CELLS }, (_, i) => (i in all ? all[i] : FILLER[i % FILLER.length]));
}
// The plays of a position but the swaps and the keep-alive move.
const plays = (s) => legalActions(s).filter((a) => a.type !== 'swap' && !(a.type === 'move' && a.src === 23));

test('SplitMix64 and derive_seed give the Python generator\'s numbers', () => {
  const r = new SplitMix64(0);
  assert.deepEqual([r.nextU64(), r.nextU64(), r.nextU64()], [0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n, 0x6c45d188009454fn]);
  const s = new SplitMix64(42);
  assert.deepEqual(Array.from({ length: 8 }, () => s.below(10)), [3, 1, 8, 4, 0, 2, 5, 8]);
  assert.equal(deriveSeed(1), 0x910a2dec89025cc1n);
  assert.equal(deriveSeed(7, 3), 0x6baa78681a99f995n);
});

test('rule 1: two decks without aces, and a deal number gives the server\'s cards', () => {
  const deck = gripDeck();
  assert.equal(deck.length, 96);
  assert.ok(deck.every((c) => c[0] !== 'A'));
  assert.deepEqual(deck.slice(0, 3), ['2S', '3S', '4S']);
  assert.deepEqual(dealCards(1).slice(0, 30), ['JH', '3D', 'KH', '4C', 'TH', '8C', '9C', '5H', '9D', '5S', 'JS', '2S',
    '5D', '3H', 'QH', '3D', 'KC', '9H', 'JC', '8S', 'JC', '2C', 'TD', 'JD', '8H', '4S', '9C', '6D', '3S', 'JD']);
  assert.deepEqual([...dealCards(7)].sort(), [...deck].sort(), 'a shuffle of the same 96 cards');
  const big = deal(2n ** 64n - 1n, 3);
  assert.deepEqual(big.grid.slice(0, 12).map((p) => p[0]), ['TH', '3C', 'QD', '6S', '3S', 'JH', '9S', 'QS', '7D', '3H', 'JS', '4S']);
  assert.deepEqual(big.stock.slice(-6), ['QH', 'JC', '2S', '2D', 'TC', 'KH']);
  assert.deepEqual(deal(123456789).grid.slice(0, 4).map((p) => p[0]), ['QC', '7H', '5C', 'KD']);
  for (const bad of [-1, 1.5, 2n ** 64n, '3']) assert.throws(() => deal(bad), RangeError);
  assert.throws(() => deal(1, 0), RangeError);
});

test('rule 2: 24 cards in the grid, 72 in the stock (card 24 on top), an empty talon', () => {
  const s = deal(1, 3);
  assert.deepEqual(Object.keys(s), ['grid', 'stock', 'talon', 'passes_allowed', 'passes_used', 'ended'],
    'the key order of GripState.to_json()');
  assert.equal(s.grid.length, 24);
  assert.ok(s.grid.every((p) => p.length === 1));
  assert.equal(s.stock.length, 72);
  assert.equal(s.stock[71], '8H', 'the first card the first deal turns up');
  assert.deepEqual(s.stock.slice(-6), ['JD', '3S', '6D', '9C', '4S', '8H']);
  assert.deepEqual(s.talon, []);
  assert.deepEqual([s.passes_allowed, s.passes_used, s.ended], [3, 1, false]);
  assert.equal(deal(1).passes_allowed, null);
});

test('rule 3: same suit, three ranks up, at most four cards, nothing on J Q K', () => {
  assert.ok(fits('5S', '2S'));
  assert.ok(fits('KD', 'TD'));
  assert.ok(!fits('5H', '2S'));
  assert.ok(!fits('6S', '2S'));
  assert.ok(!fits('2S', 'JS'), 'no wrap-around past the jack');
  assert.deepEqual(['2S', '3S', '4S', 'JS', 'QS', 'KS'].map(chainOf), [0, 1, 2, 0, 1, 2]);
  assert.ok(isChain(['2S', '5S', '8S', 'JS']));
  assert.ok(isChain(['5S', '8S']), 'a pile need not start at its base');
  assert.ok(!isChain(['2S', '8S']));
  assert.throws(() => fromLayout(layout({ 0: '2S 8S' })), RangeError);
  assert.equal(parseCard('10h'), 'TH');
  assert.throws(() => parseCard('1H'), RangeError);
  assert.throws(() => fromLayout(layout({ 0: 'AS' })), RangeError, 'no aces');
});

test('rule 4: the talon top onto a pile, or a card with the cards on it, as one piece', () => {
  const s = fromLayout(layout({ 0: '2S', 1: '5S 8S', 2: '3H', 3: '2S' }), ['7D'], ['6H']);
  assert.deepEqual(plays(s), [
    { type: 'deal' },
    { type: 'talon', dst: 2 },
    { type: 'move', src: 1, dst: 0, count: 2 },
    { type: 'move', src: 1, dst: 3, count: 2 },
  ]);
  const moved = apply(s, { type: 'move', src: 1, dst: 3, count: 2 });
  assert.deepEqual(moved.grid[3], ['2S', '5S', '8S']);
  assert.deepEqual(moved.grid[1], ['7D'], 'rule 7 refilled the emptied cell');
  assert.deepEqual(apply(s, { type: 'talon', dst: 2 }).grid[2], ['3H', '6H']);
  assert.throws(() => apply(s, { type: 'move', src: 1, dst: 0, count: 1 }), IllegalAction, '8S does not go on 2S');
  assert.throws(() => apply(s, { type: 'move', src: 1, dst: 1, count: 2 }), IllegalAction);
  assert.throws(() => apply(s, { type: 'move', src: 0, dst: 1, count: 2 }), IllegalAction, 'the pile has one card');
  assert.throws(() => apply(s, { type: 'talon', dst: 0 }), IllegalAction);
  // A part of a pile moves too: 8S (with nothing on it) onto a 5S.
  const part = fromLayout(layout({ 0: '2S 5S 8S', 1: '5S' }), ['7D']);
  assert.deepEqual(plays(part).slice(1), [{ type: 'move', src: 0, dst: 1, count: 1 }]);
  assert.deepEqual(apply(part, { type: 'move', src: 0, dst: 1 }).grid.slice(0, 2), [['2S', '5S'], ['5S', '8S']],
    'count defaults to 1');
});

test('rule 5: any two cells swap their whole piles, an empty one included', () => {
  const s = fromLayout(layout({ 0: '2S 5S', 1: '3H' }), ['7D']);
  const swaps = legalActions(s).filter((a) => a.type === 'swap');
  assert.equal(swaps.length, 276);
  assert.ok(swaps.every((a) => a.a < a.b));
  const swapped = apply(s, { type: 'swap', a: 1, b: 0 });
  assert.deepEqual(swapped.grid.slice(0, 2), [['3H'], ['2S', '5S']]);
  assert.throws(() => apply(s, { type: 'swap', a: 2, b: 2 }), IllegalAction);
  // A cell can be empty only with stock and talon empty: the swaps then skip pairs of
  // empty cells (the Python engine lists them so, though such a deal is already over).
  const bare = fromLayout(layout({ 0: [], 1: [] }), [], []);
  assert.equal(bare.ended, true, 'nothing left to enter: the deal is over at once');
  assert.deepEqual(legalActions({ ...bare, ended: false }).filter((a) => a.type === 'swap').length, 276 - 1);
});

test('rule 6: a won deal has its rows arranged at once', () => {
  const piles = [];
  for (const base of ['2', '3', '4']) for (const suit of 'CDHS') piles.push(`${base}${suit}`);
  // 24 one-card piles, the bases of every chain twice, and 6D in the talon, which goes
  // on 3D: the last card in wins the deal.
  const s = fromLayout(piles.concat(piles), [], ['6D']);
  assert.equal(s.ended, false);
  const done = apply(s, { type: 'talon', dst: 5 });
  assert.equal(done.ended, true);
  assert.ok(won(done));
  assert.deepEqual(done.grid.map((p) => p[0]).join(' '),
    '2S 2S 2H 2H 2D 2D 2C 2C 3S 3S 3H 3H 3D 3D 3C 3C 4S 4S 4H 4H 4D 4D 4C 4C');
  assert.deepEqual(done.grid.find((p) => p.length === 2), ['3D', '6D']);
  assert.throws(() => arranged(deal(1)), IllegalAction, 'only a won deal is arranged');
});

test('rule 7: an emptied cell takes the stock top, else the talon top, else stays empty', () => {
  const both = fromLayout(layout({ 0: '2S', 1: '5S' }), ['9D', '7D'], ['6H']);
  assert.deepEqual(apply(both, { type: 'move', src: 1, dst: 0 }).grid[1], ['7D']);
  const talonOnly = fromLayout(layout({ 0: '2S', 1: '5S' }), [], ['9D', '6H']);
  const refilled = apply(talonOnly, { type: 'move', src: 1, dst: 0 });
  assert.deepEqual([refilled.grid[1], refilled.talon], [['6H'], ['9D']], 'the talon when the stock is empty');
  assert.deepEqual(fromLayout(layout({ 0: [] }), ['9D', '7D']).grid[0], ['7D'], 'a layout is refilled too');
  // With both empty a cell stays empty; in play that never happens, since the deal is
  // won (and over) as the last card comes in.
  const last = apply(fromLayout(layout({ 0: '2S', 1: '5S' }), [], ['6H']), { type: 'move', src: 1, dst: 0 });
  assert.deepEqual(last.grid[1], ['6H']);
  assert.ok(won(last) && last.ended);
  assert.deepEqual(fromLayout(layout({ 0: [] }), [], []).grid[0], []);
});

test('rule 8: three cards (or fewer) turn onto the talon, the last turned on top', () => {
  const s = fromLayout(layout(), ['2D', '3D', '4D', '5D'], []);
  const one = apply(s, { type: 'deal' });
  assert.deepEqual(one.stock, ['2D']);
  assert.deepEqual(one.talon, ['5D', '4D', '3D']);
  const two = apply(one, { type: 'deal' });
  assert.deepEqual([two.stock, two.talon], [[], ['5D', '4D', '3D', '2D']]);
});

test('rule 9: a redeal turns the talon over, unshuffled, within the pass limit', () => {
  // 2D's successor 5D is in the talon, the third card the next pass turns: the deal goes
  // on while a redeal is allowed. (No keep-alive here: the pass limit decides.)
  const at = (passes, used) => fromLayout(layout({ 0: '2D' }, false), [], ['7C', '7H', '5D', '7S'], passes, used);
  assert.equal(at(1, 1).ended, true, 'one pass: 5D can never show, so rule 10 ends the deal');
  const three = at(3, 1);
  assert.ok(canRedeal(three));
  assert.deepEqual(plays(three), [{ type: 'redeal' }]);
  const next = apply(three, { type: 'redeal' });
  assert.deepEqual([next.stock, next.talon, next.passes_used], [['7S', '5D', '7H', '7C'], [], 2]);
  assert.deepEqual(apply(next, { type: 'deal' }).talon, ['7C', '7H', '5D']);
  assert.equal(canRedeal(at(3, 2)), true);
  assert.equal(at(3, 3).ended, true, 'the third pass is the last');
  assert.throws(() => at(3, 4), RangeError);
  assert.equal(canRedeal(at(null, 40)), true, 'unlimited');
  assert.throws(() => apply(at(3, 3), { type: 'redeal' }), GameOver);
  const empty = fromLayout(layout({ 0: '2D' }), ['5D'], ['7C'], 3, 1);
  assert.throws(() => apply(empty, { type: 'redeal' }), IllegalAction, 'not while the stock has cards');
});

test('rule 10: the deal ends exactly when no card can ever enter, or when the player ends it', () => {
  const only = (cells, stock, talon, passes) => fromLayout(layout(cells, false), stock, talon, passes);
  // 5D will show on the next deal (the third card turned) and fits on 2D.
  const s = only({ 0: '2D' }, ['5D', '7C', '7H'], [], 1);
  assert.equal(isOver(s), false);
  assert.deepEqual(talonShowable(s.stock, s.talon, false), ['5D']);
  // The second card of three never shows in this pass; a redeal turns the same cards in
  // the same order, so it needs a talon card before it to shift the threes.
  assert.equal(only({ 0: '2D' }, ['7C', '5D', '7H'], [], 1).ended, true);
  assert.equal(only({ 0: '2D' }, ['7C', '5D', '7H'], [], 3).ended, true, 'the same stock again');
  assert.equal(only({ 0: '2D' }, ['7C', '5D', '7H'], ['7S'], 3).ended, false);
  assert.equal(only({ 0: '2D' }, ['7C', '5D', '7H'], ['7S'], 1).ended, true);
  // A whole pile that fits on another keeps the deal going; a part of one does not.
  assert.equal(only({ 0: '2D', 1: '5D' }, ['7C'], [], 1).ended, false);
  assert.equal(only({ 0: '5D', 1: '2D 5D' }, ['7C'], [], 1).ended, true);
  const ended = apply(s, { type: 'end' });
  assert.equal(ended.ended, true);
  assert.deepEqual(legalActions(ended), []);
  assert.throws(() => apply(ended, { type: 'deal' }), GameOver);
});

test('rule 11: the score is the cards outside the grid; the ratings', () => {
  assert.equal(score(deal(1)), 72);
  assert.deepEqual([0, 1, 2, 3, 5, 6, 10, 11, 72].map(rating),
    ['win', 'brilliant', 'brilliant', 'excellent', 'excellent', 'good', 'good', null, null]);
});

test('apply never changes the state it is given', () => {
  const s = deal(5, 3);
  const before = JSON.stringify(s);
  let t = s;
  for (let i = 0; i < 30 && !t.ended; i += 1) t = apply(t, legalActions(t, { swaps: false }).at(-1));
  assert.equal(JSON.stringify(s), before);
  assert.ok(Object.isFrozen(t) && Object.isFrozen(t.grid) && Object.isFrozen(t.grid[0]));
});

test('actions are the Python JSON shapes, checked like grip_action_from_json', () => {
  assert.deepEqual(parseAction({ type: 'move', src: 1, dst: 2 }), { type: 'move', src: 1, dst: 2, count: 1 });
  for (const bad of [null, [], { type: 'fly' }, { type: 'talon' }, { type: 'talon', dst: 24 }, { type: 'deal', x: 1 },
    { type: 'move', src: 1, dst: 2, count: 5 }, { type: 'swap', a: 1, b: '2' }]) {
    assert.throws(() => parseAction(bad), IllegalAction, JSON.stringify(bad));
  }
  assert.equal(cellName(12), 'r2c5');
});

test('a legal list takes well under a millisecond', () => {
  const s = deal(9, 3);
  for (let i = 0; i < 200; i += 1) legalActions(s);
  const started = performance.now();
  for (let i = 0; i < 1000; i += 1) legalActions(s);
  const each = (performance.now() - started) / 1000;
  assert.ok(each < 0.5, `${each.toFixed(3)} ms per legal list`);
});
