// node --test: the Devil's Grip page's pure modules (statistics, end explanations).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { addResult, emptyStats, limitKey, normalize, summary } from '../../static/grip/grip-stats.js';
import { explainText } from '../../static/grip/grip-explain.js';

const result = (over) => ({ id: 'a', passes: null, score: 5, won: false, assisted: false, par: 2, ...over });

test('a finished deal counts once, under its pass limit and kind', () => {
  let stats = addResult(emptyStats(), result());
  stats = addResult(stats, result()); // the same deal again: not counted twice
  stats = addResult(stats, result({ id: 'b', passes: 3, score: 0, won: true, assisted: true, par: null }));
  assert.deepEqual(summary(stats.byLimit.u.clean), { played: 1, won: 0, best: 5, average: 5, vsPar: 3 });
  assert.deepEqual(summary(stats.byLimit['3'].assisted), { played: 1, won: 1, best: 0, average: 0, vsPar: null });
  assert.equal(stats.byLimit['1'].clean.played, 0);
  assert.deepEqual(stats.counted, ['a', 'b']);
});

test('average against par counts only deals whose par was known', () => {
  let stats = emptyStats();
  stats = addResult(stats, result({ id: 'x', score: 4, par: 6 }));
  stats = addResult(stats, result({ id: 'y', score: 9, par: null }));
  stats = addResult(stats, result({ id: 'z', score: 3, par: 2 }));
  const s = summary(stats.byLimit.u.clean);
  assert.equal(s.played, 3);
  assert.equal(s.best, 3);
  assert.equal(s.average, 5.3);
  assert.equal(s.vsPar, -0.5); // (4-6 + 3-2) / 2
});

test('stored statistics of any shape become complete ones', () => {
  assert.deepEqual(normalize(null), emptyStats());
  assert.deepEqual(normalize('garbage'), emptyStats());
  const partial = normalize({ byLimit: { 1: { clean: { played: 2, total: 7 } } }, counted: ['q'] });
  assert.equal(partial.byLimit['1'].clean.played, 2);
  assert.equal(partial.byLimit['1'].clean.best, null);
  assert.equal(partial.byLimit.u.assisted.played, 0);
  assert.deepEqual(partial.counted, ['q']);
  assert.equal(limitKey(null), 'u');
  assert.equal(limitKey(3), '3');
});

test('the end explanation picks its sentence from the numbers', () => {
  const t = (key, vars) => `${key}${vars ? JSON.stringify(vars) : ''}`;
  assert.equal(explainText(null, t), '');
  assert.equal(explainText({ by: 'won' }, t), 'why.won');
  assert.equal(explainText({ by: 'rule', open_piles: 0, showable: 9 }, t), 'why.closed');
  assert.equal(explainText({ by: 'rule', open_piles: 4, showable: 0 }, t), 'why.noTalon');
  assert.equal(explainText({ by: 'rule', open_piles: 4, showable: 15 }, t), 'why.rule{"n":15}');
  assert.equal(explainText({ by: 'player', whole_moves: 1, showable_fit: 2 }, t),
    'why.player why.stillPossible{"moves":1,"fits":2}');
});
