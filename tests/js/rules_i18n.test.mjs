// node --test: the rules in every language (static/rules/<lang>/). Every language of the
// page has every rules file; each file has the same sections, with the same ids in the
// same order, the same numbered rules, the same card pictures and the same "our choice"
// points as the English one, and none is empty or a copy of English: no language falls
// back to English rules. (The UI strings' keys: tests/js/i18n.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

// i18n.js may read the saved language at load time; a bare stand-in for the browser will do.
globalThis.window ??= { localStorage: { getItem: () => null } };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { LANGUAGES } = await import('../../static/common/i18n.js');
const { outline, parseCards } = await import('../../static/common/markdown.js');

const ROOT = new URL('../../static/rules/', import.meta.url);
const FILES = ['demon.howto.md', 'demon.md', 'devils-grip.howto.md', 'devils-grip.md'];
const CODES = LANGUAGES.map(([code]) => code);
// How each language marks a point where the app decides what the traditional rules leave open.
const OUR_CHOICE = { en: /our choice/gi, ro: /alegerea noastră/gi, de: /unsere wahl/gi,
  fi: /meidän valintamme/gi, ru: /наш выбор/gi };

const read = (lang, file) => readFileSync(new URL(`${lang}/${file}`, ROOT), 'utf8');

// Prose lines worth comparing with English: four words or more, not code or cards.
function proseLines(text) {
  return text.split('\n').map((l) => l.trim())
    .filter((l) => !l.startsWith('[[') && !l.includes('`') && (l.match(/\p{L}{2,}/gu) || []).length >= 4);
}

test('every language of the page has exactly the rules files, and no other', () => {
  assert.deepEqual(CODES.sort(), ['de', 'en', 'fi', 'ro', 'ru']);
  const folders = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.deepEqual(folders.sort(), [...CODES].sort());
  for (const lang of CODES) {
    assert.deepEqual(readdirSync(new URL(`${lang}/`, ROOT)).sort(), [...FILES].sort(), lang);
  }
});

for (const file of FILES) {
  test(`${file}: the same sections, rules, cards and choices in every language`, () => {
    const english = read('en', file);
    const reference = outline(english);
    assert.equal(reference[0].level, 1, 'a file starts with its title');
    assert.ok(reference.length >= 4, 'a few sections at least');
    const ids = reference.slice(1).map((s) => s.id);
    assert.ok(ids.every(Boolean), `every section of en/${file} has an id`);
    assert.equal(new Set(ids).size, ids.length, 'section ids are unique');
    const englishProse = new Set(proseLines(english));
    for (const lang of CODES) {
      const text = read(lang, file);
      const where = `${lang}/${file}`;
      assert.ok(text.trim().length > 400, `${where} is not empty`);
      const sections = outline(text);
      assert.equal(sections[0].level, 1, `${where} starts with its title`);
      assert.ok(sections[0].title.trim(), `${where} has a title`);
      assert.deepEqual(sections.slice(1).map((s) => [s.level, s.id]), reference.slice(1).map((s) => [s.level, s.id]),
        `${where}: the same section ids in the same order as English`);
      for (const [i, section] of sections.entries()) {
        const ref = reference[i];
        assert.ok(section.title.trim(), `${where}: section ${section.id} has a heading`);
        assert.deepEqual(section.numbers, ref.numbers, `${where}: numbered rules of ${section.id}`);
        assert.deepEqual(section.cards, ref.cards, `${where}: card pictures of ${section.id}`);
        const choices = (section.text.match(OUR_CHOICE[lang]) || []).length;
        const refChoices = (ref.text.match(OUR_CHOICE.en) || []).length;
        assert.equal(choices, refChoices, `${where}: "our choice" points in ${section.id}`);
      }
      if (lang !== 'en') {
        const copied = proseLines(text).filter((line) => englishProse.has(line));
        assert.deepEqual(copied, [], `${where} has lines copied from English`);
        assert.notEqual(sections[0].title, reference[0].title, `${where}: the title is translated`);
      }
    }
  });
}

test('every card picture in the rules is a real card', () => {
  for (const lang of CODES) {
    for (const file of FILES) {
      for (const token of read(lang, file).match(/\[\[[^\]]*\]\]/g) || []) {
        assert.ok(parseCards(token), `${lang}/${file}: ${token}`);
      }
    }
  }
});

test('the numbered rules run 1..n without gaps in each game', () => {
  for (const file of ['demon.md', 'devils-grip.md']) {
    const numbers = outline(read('en', file)).flatMap((s) => s.numbers);
    assert.deepEqual(numbers, numbers.map((_, i) => i + 1), file);
  }
  assert.equal(outline(read('en', 'demon.md')).flatMap((s) => s.numbers).length, 19);
  assert.equal(outline(read('en', 'devils-grip.md')).flatMap((s) => s.numbers).length, 12);
});
