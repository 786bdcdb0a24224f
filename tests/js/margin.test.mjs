// node --test: a race's margin as the seconds a note shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatMargin } from '../../static/common/margin.js';

test('hundredths of a second, in the language\'s own decimal mark', () => {
  assert.equal(formatMargin(40, 'en'), '0.04');
  assert.equal(formatMargin(1500, 'en'), '1.50');
  assert.equal(formatMargin(40, 'de'), '0,04');
  assert.equal(formatMargin(1234, 'fi'), '1,23');
});

test('a photo finish keeps its thousandths, and nothing is negative', () => {
  assert.equal(formatMargin(4, 'en'), '0.004');
  assert.equal(formatMargin(0, 'en'), '0.000');
  assert.equal(formatMargin(-5, 'en'), '0.000');
});

import { lostText, wonText, createWinGate, CLOSE_MS, QUIET_MS } from '../../static/common/margin.js';
import en from '../../static/i18n/en.js';
import de from '../../static/i18n/de.js';
import fi from '../../static/i18n/fi.js';
import ro from '../../static/i18n/ro.js';
import ru from '../../static/i18n/ru.js';

const TABLES = { en, de, fi, ro, ru };
/** The page's translate over one language's table (common/i18n.js does the same). */
const translate = (table) => (key, vars = {}) => {
  const text = table[key];
  if (text === undefined) throw new Error(`no text for ${key}`);
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
};

test('a margin of 0 ms is a tie on both sides, in every language, never "first by 0.000 s"', () => {
  for (const [lang, table] of Object.entries(TABLES)) {
    const t = translate(table);
    const lost = lostText('Bob', 0, t, lang);
    const won = wonText('Ann', 0, t, lang);
    assert.equal(lost, t('table.tiedLost', { name: 'Bob' }), lang);
    assert.equal(won, t('table.tiedWon', { name: 'Ann' }), lang);
    assert.ok(lost.includes('Bob') && won.includes('Ann'), lang);
    for (const text of [lost, won]) assert.ok(!/0[.,]000/.test(text), `${lang}: ${text}`);
    // and not the words of a win by a margin
    assert.notEqual(won, t('table.wonByMargin', { name: 'Ann', margin: formatMargin(0, lang) }), lang);
  }
});

test('a race won or lost by a margin says the margin; none known, who was first', () => {
  const t = translate(en);
  assert.equal(lostText('Ann', 40, t, 'en'), 'Ann was first by 0.04 s');
  assert.equal(wonText('Bob', 40, t, 'en'), 'You were first by 0.04 s, ahead of Bob');
  assert.equal(wonText('Bob', 1, t, 'en'), 'You were first by 0.001 s, ahead of Bob');
  assert.equal(lostText('Ann', undefined, t, 'en'), t('table.beatenBy', { name: 'Ann' }));
});

test('won races: only close ones, and one note in a quiet time', () => {
  const gate = createWinGate();
  assert.equal(gate.admit(CLOSE_MS + 1, 0), false); // not a race
  assert.equal(gate.admit(40, 0), true);
  assert.equal(gate.admit(0, QUIET_MS - 1), false); // too soon after the last
  assert.equal(gate.admit(30, QUIET_MS), true);
  assert.equal(gate.admit(5000, 3 * QUIET_MS), false); // a wide one does not start a quiet time
  assert.equal(gate.admit(20, 3 * QUIET_MS + 1), true);
});

test('a table of eight: 18 won races in 50 s make at most 5 notes', () => {
  // what the tester saw: a win every 2.8 s, most of them close
  const gate = createWinGate();
  let shown = 0;
  for (let i = 0; i < 18; i++) if (gate.admit(i % 3 === 0 ? 1500 : 60, i * 2800)) shown++;
  assert.ok(shown >= 1 && shown <= 5, String(shown));
});
