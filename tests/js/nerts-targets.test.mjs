// node --test: what a Nerts player holds and where it may go (static/nerts/nerts-targets.js),
// over positions of a real round (fixtures/nerts-playout.json, made by the rules engine:
// fixtures/make_nerts_playout.py) and a few written in the wire's shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { selectionOf, pickKeys, nertsTargets, quickMove, pickable } from '../../static/nerts/nerts-targets.js';

const PLAYOUT = JSON.parse(readFileSync(new URL('./fixtures/nerts-playout.json', import.meta.url), 'utf8'));

/** Every card of a view the page marks as pickable, with the selection it stands for. */
function picks(view) {
  const keys = ['n', 'w'];
  view.work.forEach((pile, i) => pile.forEach((_, j) => keys.push(`k:${i}:${j}`)));
  return keys.map((key) => [key, selectionOf(key, view)]).filter(([, sel]) => sel !== null);
}

test('the playout has the moves the tests need', () => {
  const types = new Set(PLAYOUT.positions.flatMap((p) => p.legal.map((a) => a.type)));
  for (const type of ['draw', 'recycle', 'work', 'foundation']) assert.ok(types.has(type), type);
});

test('a picked card lifts itself and the cards above it, and nothing else', () => {
  for (const { view } of PLAYOUT.positions) {
    for (const [key, sel] of picks(view)) {
      const lifted = pickKeys(sel, view);
      assert.equal(lifted[0], key);
      assert.equal(lifted.length, sel.count);
      assert.ok(sel.count <= pickable(view, sel.src));
    }
  }
});

test('an empty Nerts pile or waste, or a card past a pile, picks nothing', () => {
  const view = { nerts_top: null, nerts_count: 0, work: [['KS'], [], [], []], stock: 3, waste: [], waste_count: 0 };
  assert.equal(selectionOf('n', view), null);
  assert.equal(selectionOf('w', view), null);
  assert.equal(selectionOf('k:0:1', view), null);
  assert.equal(selectionOf('k:1:0', view), null);
  assert.equal(selectionOf('k:4:0', view), null);
  assert.equal(selectionOf('t:0', view), null);
  assert.deepEqual(selectionOf('k:0:0', view), { src: 0, count: 1 });
  assert.deepEqual(pickKeys({ src: 0, count: 2 }, view), []);
});

test('the targets of every selection are exactly the legal moves of those cards', () => {
  let some = 0;
  for (const { view, legal } of PLAYOUT.positions) {
    for (const [, sel] of picks(view)) {
      const targets = nertsTargets(legal, sel);
      const wanted = legal.filter((a) => a.src === sel.src
        && ((a.type === 'work' && a.count === sel.count) || (a.type === 'foundation' && sel.count === 1)));
      assert.equal(targets.size, wanted.length);
      for (const a of wanted) {
        const key = a.type === 'work' ? `t:${a.dst}` : `f:${a.pile}`;
        assert.deepEqual(targets.get(key), { build: a });
        some += 1;
      }
    }
  }
  assert.ok(some > 20, `only ${some} moves checked`);
});

test('a double-click sends a card home first, else to the work pile listed for it', () => {
  const legal = [
    { type: 'draw' },
    { type: 'work', src: 'nerts', dst: 2, count: 1 },
    { type: 'foundation', src: 'waste', pile: 3 },
    { type: 'work', src: 'waste', dst: 1, count: 1 },
    { type: 'work', src: 1, dst: 0, count: 2 },
  ];
  assert.deepEqual(quickMove(legal, { src: 'waste', count: 1 }),
    { action: { type: 'foundation', src: 'waste', pile: null }, key: 'f:3' });
  assert.deepEqual(quickMove(legal, { src: 'nerts', count: 1 }),
    { action: { type: 'work', src: 'nerts', dst: 2, count: 1 }, key: 't:2' });
  assert.equal(quickMove(legal, { src: 'nerts', count: 1 }, { foundationOnly: true }), null);
  assert.deepEqual(quickMove(legal, { src: 1, count: 2 }),
    { action: { type: 'work', src: 1, dst: 0, count: 2 }, key: 't:0' });
  assert.equal(quickMove(legal, { src: 1, count: 1 }), null);
  assert.equal(quickMove(legal, null), null);
});

test('in the playout, a double-click on a card the server lets go home sends it home', () => {
  let homes = 0;
  for (const { view, legal } of PLAYOUT.positions) {
    for (const [, sel] of picks(view)) {
      const move = quickMove(legal, sel);
      const home = sel.count === 1 && legal.some((a) => a.type === 'foundation' && a.src === sel.src);
      if (home) {
        homes += 1;
        assert.equal(move.action.type, 'foundation');
      } else if (move) {
        assert.ok(legal.some((a) => a.type === 'work' && a.src === sel.src && a.dst === move.action.dst && a.count === sel.count));
      }
    }
  }
  assert.ok(homes >= 3);
});
