// node --test: a Nerts table in words (static/nerts/nerts-words.js), with the real
// English table (static/i18n/en.js) and the engine events of a real round
// (fixtures/nerts-playout.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import en from '../../static/i18n/en.js';
import { nertsMoveWords, stallWords, nertsLayoutWords } from '../../static/nerts/nerts-words.js';

const PLAYOUT = JSON.parse(readFileSync(new URL('./fixtures/nerts-playout.json', import.meta.url), 'utf8'));

const t = (key, vars = {}) => {
  assert.ok(key in en, `no such key: ${key}`);
  return en[key].replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
};
const cardName = (c) => `<${c}>`;
const cardText = (c) => c;

test('a foundation play, a move and a turned-up Nerts card are said for anyone', () => {
  const event = { engine: [
    { type: 'played', seat: 1, src: 'nerts', card: '5H', pile: 2, new_pile: false },
    { type: 'turned_up', seat: 1, card: 'QS', nerts_count: 6 },
  ] };
  assert.equal(nertsMoveWords(event, { t, cardName, name: 'Bo' }),
    'Bo: <5H> to foundation 3. <QS> turned up on the Nerts pile, 6 left');
  const moved = { engine: [{ type: 'moved', seat: 1, src: 2, dst: 0, cards: ['9S', '8H'] }] };
  assert.equal(nertsMoveWords(moved, { t, cardName, name: 'Bo' }), 'Bo: <9S>, <8H> onto pile 1');
});

test('a space filled from the Nerts pile (H3) is said', () => {
  const event = { engine: [
    { type: 'moved', seat: 0, src: 3, dst: 1, cards: ['7C'] },
    { type: 'filled', seat: 0, pile: 3, card: 'JD' },
    { type: 'turned_up', seat: 0, card: '2S', nerts_count: 4 },
  ] };
  assert.equal(nertsMoveWords(event, { t, cardName, name: 'You' }),
    'You: <7C> onto pile 2. You: <JD> from the Nerts pile fills pile 4. <2S> turned up on the Nerts pile, 4 left');
});

test('a draw is said only to the one who drew; another seat\'s is silence', () => {
  const drew = PLAYOUT.positions.find((p) => p.engine.some((e) => e.type === 'drew') && p.view.waste.length);
  const top = drew.view.waste[drew.view.waste.length - 1];
  assert.equal(nertsMoveWords(drew, { t, cardName, name: 'You', mine: true }), `You: drew, <${top}> on the waste`);
  assert.equal(nertsMoveWords(drew, { t, cardName, name: 'Bo' }), null);
  const recycled = PLAYOUT.positions.find((p) => p.engine.some((e) => e.type === 'recycled'));
  assert.equal(nertsMoveWords(recycled, { t, cardName, name: 'You', mine: true }), null);
});

test('every foundation play of the playout is said, with its card and pile', () => {
  const plays = PLAYOUT.positions.filter((p) => p.engine.some((e) => e.type === 'played'));
  assert.ok(plays.length >= 3);
  for (const p of plays) {
    const e = p.engine.find((x) => x.type === 'played');
    const words = nertsMoveWords(p, { t, cardName, name: 'Bo' });
    assert.ok(words.startsWith(`Bo: <${e.card}> to foundation ${e.pile + 1}`), words);
  }
});

test('"Nerts!" is said even with nothing else to say', () => {
  const event = { engine: [
    { type: 'played', seat: 2, src: 'nerts', card: 'KD', pile: 0, new_pile: false },
    { type: 'nerts', seat: 2 },
    { type: 'round_ended', reason: 'nerts' },
  ] };
  assert.equal(nertsMoveWords(event, { t, cardName, name: 'Cy' }), 'Cy: <KD> to foundation 1. Cy: Nerts!');
  assert.equal(nertsMoveWords({ engine: [{ type: 'nerts', seat: 2 }] }, { t, cardName, name: 'Cy' }), 'Cy: Nerts!');
  assert.equal(nertsMoveWords(null, { t, cardName, name: 'Cy' }), null);
});

test('the stall is said in the words the plan gives', () => {
  assert.equal(stallWords(t), 'Everyone was stuck: every stock was turned over once.');
});

test('another seat\'s layout in words: Nerts pile, cards home, stock, waste, work piles', () => {
  const view = PLAYOUT.positions[5].view;
  const words = nertsLayoutWords(view, 4, { t, cardText });
  assert.ok(words.startsWith(`Nerts pile: ${view.nerts_top} on top, ${view.nerts_count} left`), words);
  assert.ok(words.includes('4 on the foundations'));
  assert.ok(words.includes(`${view.stock} cards in the stock`));
  assert.ok(words.includes(`Work pile 2: ${view.work[1].join(' ')}`), words);
  const empty = { ...view, nerts_top: null, nerts_count: 0, waste: [], waste_count: 0, work: [[], [], [], []] };
  const none = nertsLayoutWords(empty, 0, { t, cardText });
  assert.ok(none.startsWith('Nerts pile: empty'), none);
  assert.ok(none.includes('Waste: empty') && none.includes('Work pile 4: empty'), none);
  assert.equal(nertsLayoutWords(null, 0, { t, cardText }), '');
});
