// node --test: the words of the offline and not-found pages (static/common/notice.js) exist in
// every language the app offers, none empty and none left in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { LANGUAGES } from '../../static/common/i18n.js';
import { NOTICE_TEXT } from '../../static/common/notice.js';

test('every language of the app has every notice text', () => {
  assert.deepEqual(Object.keys(NOTICE_TEXT).sort(), LANGUAGES.map(([code]) => code).sort());
  const shape = (table) => Object.fromEntries(Object.entries(table).map(([kind, words]) => [kind, Object.keys(words).sort()]));
  for (const [lang, table] of Object.entries(NOTICE_TEXT)) {
    assert.deepEqual(shape(table), shape(NOTICE_TEXT.en), lang);
    for (const [kind, words] of Object.entries(table)) {
      for (const [key, text] of Object.entries(words)) {
        assert.ok(text.trim().length > 0, `${lang}.${kind}.${key} is empty`);
        if (lang !== 'en') assert.notEqual(text, NOTICE_TEXT.en[kind][key], `${lang}.${kind}.${key} is English`);
      }
    }
  }
});
