// node --test: what a screen reader is told at the Demon table (static/demon/announce.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { moveWords, foundationsWords, layoutWords } from '../../static/demon/announce.js';
import { t } from '../../static/common/i18n.js';

const cardName = (c) => `<${c}>`;
const cardText = (c) => c;

test('a foundation play names the player, the card and the pile; a card turned up follows', () => {
  const event = { kind: 'move', seat: 1, engine: [
    { type: 'played', seat: 1, src: 6, card: 'AC', pile: 0, new_pile: true },
    { type: 'turned_up', seat: 1, pile: 6, card: '9H' },
  ] };
  assert.equal(moveWords(event, { t, cardName, name: 'Bob' }), 'Bob: <AC> to foundation 1. <9H> turned up');
});

test('cards moved onto a pile are all named', () => {
  const event = { kind: 'move', seat: 0, engine: [
    { type: 'moved', seat: 0, src: 'waste', dst: 3, cards: ['QH', 'JS'] }] };
  assert.equal(moveWords(event, { t, cardName, name: 'You', mine: true }), 'You: <QH>, <JS> onto pile 4');
});

test('a draw is said only for your own; a recycle or an unknown event is not said', () => {
  const drew = { kind: 'move', seat: 0, engine: [
    { type: 'drew', seat: 0, count: 3, waste: ['2D', '7C', 'KS'], stock_count: 21, waste_count: 3 }] };
  assert.equal(moveWords(drew, { t, cardName, name: 'Ann' }), null);
  assert.equal(moveWords(drew, { t, cardName, name: 'You', mine: true }), 'You: drew, <KS> on the waste');
  assert.equal(moveWords({ engine: [{ type: 'recycled', seat: 0, stock_count: 24 }] },
    { t, cardName, name: 'You', mine: true }), null);
  assert.equal(moveWords({}, { t, cardName, name: 'Bob' }), null);
});

test('the foundations: every pile with its top card and who played it, gaps left out', () => {
  const words = foundationsWords([{ top: '3C', seat: 1, count: 3 }, null, { top: 'AD', seat: 0, count: 1 }],
    { t, cardText, nameOf: (seat) => ['Ann', 'Bob'][seat] });
  assert.equal(words, 'Foundation 1: 3C, played by Bob. Foundation 3: AD, played by Ann');
  assert.equal(foundationsWords([], { t, cardText, nameOf: () => '?' }), '');
});

test("a seat's layout: cards home, stock, waste top and every pile", () => {
  const view = { stock: 18, waste: ['4S', 'TD'], waste_count: 6,
    tableau: [{ down: 0, up: [] }, { down: 2, up: ['9C', '8H'] }] };
  assert.equal(layoutWords(view, 5, { t, cardText }), '5/52 home. 18 cards in the stock. '
    + 'Waste: TD on top (6 cards). Pile 1: 0 face down; empty, K. Pile 2: 2 face down; 9C 8H');
  assert.equal(layoutWords({ stock: 0, waste: [], tableau: [] }, 0, { t, cardText }),
    '0/52 home. 0 cards in the stock. Waste: empty');
});
