// node --test: the rules in every language (static/rules/<lang>/). Every language of the
// page has every rules file; each file has the same sections, with the same ids in the
// same order, the same numbered rules, the same card pictures and the same "our choice"
// points as the English one, and none is empty or a copy of English: no language falls
// back to English rules. The numbered rules, the points marked "our choice" and Nerts'
// house rules are held to docs/numbered-rules.md, the authority for the rules the engine
// implements. (The UI strings' keys: tests/js/i18n.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

// i18n.js may read the saved language at load time; a bare stand-in for the browser will do.
globalThis.window ??= { localStorage: { getItem: () => null } };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { LANGUAGES } = await import('../../static/common/i18n.js');
const { outline, parseCards } = await import('../../static/common/markdown.js');

const ROOT = new URL('../../static/rules/', import.meta.url);
const GAMES = ['demon', 'devils-grip', 'nerts'];
const FILES = GAMES.flatMap((game) => [`${game}.howto.md`, `${game}.md`]);
// The section of docs/numbered-rules.md that numbers each game's rules.
const DOC_SECTION = { demon: 'Demon', 'devils-grip': "Devil's Grip", nerts: 'Nerts' };
const CODES = LANGUAGES.map(([code]) => code);
// How each language marks a point where the app decides what the traditional rules leave open.
const OUR_CHOICE = { en: /our choice/gi, ro: /alegerea noastră/gi, de: /unsere wahl/gi,
  fi: /meidän valintamme/gi, ru: /наш выбор/gi };

const read = (lang, file) => readFileSync(new URL(`${lang}/${file}`, ROOT), 'utf8');
const NUMBERED_RULES = readFileSync(new URL('../../docs/numbered-rules.md', import.meta.url), 'utf8');

// A markdown text as its numbered items and house-rule bullets ("- **H2. ..."), each with
// its whole text (continuation lines are indented). Headings and plain paragraphs end an
// item, so an intro's words are never counted as part of the rule above them.
function items(markdown) {
  const out = [];
  let current = null;
  for (const line of markdown.split('\n')) {
    const numbered = /^(\d+)\.\s/.exec(line);
    const house = /^-\s+\*\*(H\d+)\b/.exec(line);
    if (numbered || house) {
      current = { label: numbered ? Number(numbered[1]) : house[1], text: line };
      out.push(current);
    } else if (current && /^\s+\S/.test(line)) {
      current.text += `\n${line}`;
    } else if (line.trim()) {
      current = null;
    }
  }
  return out;
}

// One game's section of docs/numbered-rules.md ("## Nerts" up to the next "## ").
function docSection(game) {
  const sections = NUMBERED_RULES.split(/^## /m);
  const section = sections.find((s) => s.startsWith(`${DOC_SECTION[game]}\n`));
  assert.ok(section, `docs/numbered-rules.md has a section "${DOC_SECTION[game]}"`);
  return section;
}

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
  for (const game of GAMES) {
    const numbers = outline(read('en', `${game}.md`)).flatMap((s) => s.numbers);
    assert.deepEqual(numbers, numbers.map((_, i) => i + 1), game);
  }
  assert.equal(outline(read('en', 'demon.md')).flatMap((s) => s.numbers).length, 19);
  assert.equal(outline(read('en', 'devils-grip.md')).flatMap((s) => s.numbers).length, 12);
  assert.equal(outline(read('en', 'nerts.md')).flatMap((s) => s.numbers).length, 14);
});

for (const game of GAMES) {
  test(`${game}.md: the rules of docs/numbered-rules.md, in every language`, () => {
    const docItems = items(docSection(game));
    const docRules = docItems.filter((i) => typeof i.label === 'number').map((i) => i.label);
    const docHouse = docItems.filter((i) => typeof i.label === 'string').map((i) => i.label);
    // H1, the choice of game, is named in the section's text rather than listed.
    const named = [...new Set([...docSection(game).matchAll(/\bH(\d+)\b/g)].map((m) => `H${m[1]}`))].sort();
    const decisions = docItems.filter((i) => /\(decision\b/.test(i.text)).map((i) => i.label);
    assert.ok(docRules.length >= 12, `${DOC_SECTION[game]}: the numbered rules were found`);
    assert.ok(decisions.length >= 4, `${DOC_SECTION[game]}: the decisions were found`);
    for (const lang of CODES) {
      const where = `${lang}/${game}.md`;
      const textItems = items(read(lang, `${game}.md`));
      assert.deepEqual(textItems.filter((i) => typeof i.label === 'number').map((i) => i.label), docRules,
        `${where}: the same numbered rules as docs/numbered-rules.md`);
      const house = textItems.filter((i) => typeof i.label === 'string').map((i) => i.label);
      assert.deepEqual(house, named, `${where}: the house rules docs/numbered-rules.md names, in order`);
      for (const label of docHouse) assert.ok(house.includes(label), `${where}: house rule ${label}`);
      const choice = new RegExp(OUR_CHOICE[lang].source, 'i'); // not /g: .test() would keep its place
      assert.deepEqual(textItems.filter((i) => choice.test(i.text)).map((i) => i.label),
        decisions.filter((label) => typeof label === 'number'),
        `${where}: "our choice" marks exactly the rules docs/numbered-rules.md calls decisions`);
    }
  });
}
