// node --test: the five language tables of static/i18n/ say the same things.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { LANGUAGES, languageModuleUrl, t } from '../../static/common/i18n.js';

// Every table, loaded the way the page loads the chosen one.
const TABLES = Object.fromEntries(await Promise.all(LANGUAGES.map(async ([code]) =>
  [code, (await import(languageModuleUrl(code))).default])));

// A count's plural forms ('home.roundsCount.one', 'why.rule.few') belong to one
// language's grammar: they are checked against that language's plural categories,
// not against the other tables.
function split(lang, table) {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const base = new Map();
  const plural = new Map();
  for (const [key, text] of Object.entries(table)) {
    const dot = key.lastIndexOf('.');
    const stem = key.slice(0, dot);
    if (categories.includes(key.slice(dot + 1)) && stem in table) plural.set(key, [stem, text]);
    else base.set(key, text);
  }
  return { base, plural };
}

const placeholders = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test('every language of the menu has a table, and only those', () => {
  assert.deepEqual(LANGUAGES.map(([code]) => code).sort(), Object.keys(TABLES).sort());
  assert.equal(Object.keys(TABLES).length, 5);
});

test('the five tables have exactly the same keys', () => {
  const english = [...split('en', TABLES.en).base.keys()].sort();
  assert.ok(english.length > 250);
  for (const [lang, table] of Object.entries(TABLES)) {
    const keys = [...split(lang, table).base.keys()].sort();
    const missing = english.filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !english.includes(k));
    assert.deepEqual({ lang, missing, extra }, { lang, missing: [], extra: [] });
  }
});

test('a key has the same {placeholders} in every language', () => {
  const english = split('en', TABLES.en).base;
  for (const [lang, table] of Object.entries(TABLES)) {
    for (const [key, text] of split(lang, table).base) {
      assert.equal(typeof text, 'string', `${lang} ${key}`);
      assert.deepEqual(placeholders(text), placeholders(english.get(key)), `${lang} ${key}`);
    }
  }
});

test("a plural form uses no placeholder its key lacks (it may leave {n} out: 'the one card')", () => {
  for (const [lang, table] of Object.entries(TABLES)) {
    for (const [key, [stem, text]] of split(lang, table).plural) {
      const allowed = placeholders(table[stem]);
      for (const name of placeholders(text)) assert.ok(allowed.includes(name), `${lang} ${key}: {${name}}`);
    }
  }
});

test('t() fills placeholders and picks the plural form', () => {
  assert.equal(t('home.roundsCount', { n: 1 }), '1 round');
  assert.equal(t('home.roundsCount', { n: 4 }), '4 rounds');
  assert.equal(t('table.beatenBy', { name: '{n}' }), TABLES.en['table.beatenBy'].replace('{name}', '{n}'));
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('Russian names the game «Демон» everywhere: "Demon" only inside the name Racing Demon', () => {
  // the daily page once said "раздача Demon" where every other page says «Демон»
  const latin = Object.entries(TABLES.ru).filter(([, text]) => /Demon/.test(text.replaceAll('Racing Demon', '')));
  assert.deepEqual(latin, []);
});
