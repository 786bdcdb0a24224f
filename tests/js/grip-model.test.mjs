// node --test: the Devil's Grip page's model (static/grip/grip-model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { adopt, shownState, isFinished, resultOf, hintTouches, hintText, stepText, cellName, ratingText,
  fmtVsPar } from '../../static/grip/grip-model.js';

const t = (key, vars) => `${key}${vars ? JSON.stringify(vars) : ''}`;
const game = (over) => ({ id: 'g1', number: 42, par: null, used_undo: false, used_hint: false,
  state: { score: 30, won: false, ended: false, passes_allowed: 3, grid: [], talon: [] }, legal: [], ...over });

test('an answer replaces the game but keeps a par already known for it', () => {
  const known = Object.freeze(game({ par: 12 }));
  const answer = Object.freeze(game({ par: null, can_undo: true }));
  const next = adopt(known, answer);
  assert.equal(next.par, 12);
  assert.equal(next.can_undo, true);
  assert.equal(answer.par, null, 'the answer itself is not changed');
  assert.equal(adopt(known, game({ id: 'g2' })).par, null, 'another game has its own par');
  assert.equal(adopt(null, answer), answer);
  assert.equal(adopt(known, game({ par: 9 })).par, 9);
});

test('the board shows the game, or the step of the solution being replayed', () => {
  const g = game();
  assert.equal(shownState(g, null), g.state);
  assert.equal(shownState(null, null), null);
  const replay = { initial: { n: 0 }, steps: [{ state: { n: 1 } }, { state: { n: 2 } }], i: 0 };
  assert.deepEqual(shownState(g, replay), { n: 0 });
  assert.deepEqual(shownState(g, { ...replay, i: 2 }), { n: 2 });
  assert.equal(isFinished(g, null), false);
  assert.equal(isFinished(g, replay), true);
  assert.equal(isFinished(game({ state: { ...g.state, ended: true } }), null), true);
});

test('a finished deal gives its result for the statistics', () => {
  assert.equal(resultOf(game()), null);
  const over = game({ par: 10, used_hint: true, state: { score: 4, won: false, ended: true, passes_allowed: null } });
  assert.deepEqual(resultOf(over), { id: 'g1', passes: null, score: 4, won: false, assisted: true, par: 10 });
});

test('hints and solution steps in words, and where a hint points', () => {
  const move = { type: 'move', src: 9, dst: 0, count: 1 };
  assert.equal(cellName(9, t), 'grip.cell{"row":2,"col":2}');
  assert.equal(hintText(move, t), 'grip.hintMove{"from":"grip.cell{\\"row\\":2,\\"col\\":2}","to":"grip.cell{\\"row\\":1,\\"col\\":1}"}');
  assert.equal(stepText({ type: 'deal' }, t), 'grip.stepDeal');
  assert.equal(stepText({ type: 'unknown' }, t), '');
  assert.equal(hintTouches(move, 'src', 9), true);
  assert.equal(hintTouches(move, 'dst', 0), true);
  assert.equal(hintTouches(move, 'dst', 9), false);
  assert.equal(hintTouches({ type: 'swap', a: 1, b: 2 }, 'dst', 2), true);
  assert.equal(hintTouches({ type: 'redeal' }, 'stock'), true);
  assert.equal(hintTouches(null, 'stock'), false);
});

test('ratings and differences to par as the page writes them', () => {
  assert.equal(ratingText({ rating: null }, t), '');
  const de = (key) => ({ 'rating.good': 'gut' }[key] ?? key);
  assert.equal(ratingText({ rating: 'Good' }, de), 'gut');
  assert.equal(ratingText({ rating: 'Superb' }, de), 'Superb', 'no translation: the server word');
  assert.equal(fmtVsPar(1.25), '+1.3');
  assert.equal(fmtVsPar(-2), '−2.0');
  assert.equal(fmtVsPar(0), '±0.0');
  assert.equal(fmtVsPar(null), '—');
});
