// node --test: which letters the cards are written with (static/cards/card-letters.js), and
// the texts that use them through t() (static/common/i18n.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { INTERNATIONAL, lettersFor, hasLocalLetters, rankLetter, suitLetter, rowGoals, chains, letterVars }
  from '../../static/cards/card-letters.js';
import { t, setTextConstants } from '../../static/common/i18n.js';

const court = (letters) => ['A', 'K', 'Q', 'J'].map((r) => rankLetter(r, letters)).join(' ');

test("by default each language gets what its decks print: German K D B, Russian Т К Д В, the others A K Q J", () => {
  assert.equal(court(lettersFor('de')), 'A K D B');
  assert.equal(court(lettersFor('ru')), 'Т К Д В');
  assert.equal(court(lettersFor('en')), 'A K Q J');
  assert.equal(court(lettersFor('fi')), 'A K Q J');
  assert.equal(court(lettersFor('ro')), 'A K Q J');
});

test('the player may choose the international letters or the language’s own', () => {
  assert.equal(lettersFor('de', 'intl'), INTERNATIONAL);
  assert.equal(lettersFor('ru', 'intl'), INTERNATIONAL);
  assert.equal(court(lettersFor('ro', 'local')), 'A R D V');
  assert.equal(court(lettersFor('de', 'local')), 'A K D B');
  // a language without letters of its own keeps the international ones
  assert.equal(hasLocalLetters('fi'), false);
  assert.equal(lettersFor('fi', 'local'), INTERNATIONAL);
  assert.equal(lettersFor('en', 'nonsense'), INTERNATIONAL);
  assert.equal(lettersFor('xx'), INTERNATIONAL);
});

test('numbers stay numbers, ten is "10", and the suit letters follow the language', () => {
  const ru = lettersFor('ru');
  assert.equal(rankLetter('7', ru), '7');
  assert.equal(rankLetter('T', ru), '10');
  assert.equal(rankLetter('T', INTERNATIONAL), '10');
  assert.deepEqual(['S', 'H', 'D', 'C'].map((s) => suitLetter(s, ru)), ['П', 'Ч', 'Б', 'Т']);
  assert.deepEqual(['S', 'H', 'D', 'C'].map((s) => suitLetter(s, lettersFor('de'))), ['P', 'H', 'Ka', 'Kr']);
  assert.deepEqual(['S', 'H', 'D', 'C'].map((s) => suitLetter(s, INTERNATIONAL)), ['S', 'H', 'D', 'C']);
  // each table names its own cache of card pictures
  assert.notEqual(lettersFor('de').id, lettersFor('ru').id);
});

test("Devil's Grip's rows and chains in the letters chosen", () => {
  assert.deepEqual(rowGoals(INTERNATIONAL), ['2 → J', '3 → Q', '4 → K']);
  assert.deepEqual(rowGoals(lettersFor('de')), ['2 → B', '3 → D', '4 → K']);
  assert.deepEqual(chains(lettersFor('ru')), ['2-5-8-В', '3-6-9-Д', '4-7-10-К']);
  assert.deepEqual(chains(INTERNATIONAL), ['2-5-8-J', '3-6-9-Q', '4-7-10-K']);
});

test('t() fills {A} {K} {Q} {J} with the letters chosen; a value given by the caller wins', () => {
  setTextConstants(letterVars(lettersFor('de')));
  assert.equal(t('home.gripLead'), 'A solitaire for one: build 2-5-8-B, 3-6-9-D and 4-7-10-K in a 3 × 8 grid.');
  assert.equal(t('table.none'), 'empty, K');
  assert.equal(t('table.newPileShort'), 'A');
  setTextConstants(letterVars(lettersFor('ru')));
  assert.equal(t('table.none'), 'empty, К');
  assert.equal(t('table.newPileShort'), 'Т');
  assert.equal(t('table.none', { K: 'x' }), 'empty, x');
  setTextConstants(letterVars(INTERNATIONAL));
  assert.equal(t('home.gripLead'), 'A solitaire for one: build 2-5-8-J, 3-6-9-Q and 4-7-10-K in a 3 × 8 grid.');
});
