// node --test: the offline page's own words (static/offline.js) exist in every language
// the app offers, none empty and none left in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { LANGUAGES } from '../../static/i18n.js';
import { OFFLINE_TEXT } from '../../static/offline.js';

test('every language of the app has every offline text', () => {
  const keys = Object.keys(OFFLINE_TEXT.en).sort();
  assert.deepEqual(Object.keys(OFFLINE_TEXT).sort(), LANGUAGES.map(([code]) => code).sort());
  for (const [lang, table] of Object.entries(OFFLINE_TEXT)) {
    assert.deepEqual(Object.keys(table).sort(), keys, lang);
    for (const key of keys) {
      assert.ok(table[key].trim().length > 0, `${lang}.${key} is empty`);
      if (lang !== 'en') assert.notEqual(table[key], OFFLINE_TEXT.en[key], `${lang}.${key} is English`);
    }
  }
});
