// A tiny markdown reader for the rules: headings, paragraphs, bullet and numbered lists,
// **bold**, *italic*, `code`, and card pictures. It builds DOM nodes and text nodes only
// — no string ever becomes HTML.
//
// Two additions to plain markdown, both used by static/rules/<lang>/*.md:
// * `## Title {#id}` gives a heading a section id (kept as data-section), the same in
//   every language, so the rules' structure can be checked across languages;
// * `[[5S 8S ##]]` is a row of small card pictures: rank A 2-9 T J Q K and suit S H D C,
//   `##` a face-down card. The caller draws them (options.cards); without it they are
//   written as text ("5♠ 8♠ ▮").

import { h } from './dom.js';

/**
 * What the caller may give: `cards` draws a row of card pictures from their codes.
 * @typedef {{ cards?: (codes: string[]) => Node }} MarkdownOptions
 */
/** @typedef {{ level: number, title: string, id: string | null }} Heading */

const HEADING = /^(#{1,6})\s+(.*?)(?:\s+\{#([a-z0-9-]+)\})?\s*$/;
const CARD_CODE = /^(?:[A2-9TJQK][SHDC]|##)$/;
/** @type {Record<string, string>} */
const SUIT_SIGN = { S: '♠', H: '♥', D: '♦', C: '♣' };

// A heading line as {level, title, id}, or null.
/**
 * @param {string} line
 * @returns {Heading | null}
 */
export function parseHeading(line) {
  const m = HEADING.exec(line);
  return m ? { level: m[1].length, title: m[2], id: m[3] || null } : null;
}

// The codes inside a card picture "[[5S 8S]]", or null when it is not one.
/**
 * @param {string} token
 * @returns {string[] | null}
 */
export function parseCards(token) {
  const m = /^\[\[([^\]]+)\]\]$/.exec(token);
  if (!m) return null;
  const codes = m[1].trim().split(/\s+/);
  return codes.every((c) => CARD_CODE.test(c)) ? codes : null;
}

// The outline of a document, for tests and for the dialog: every heading with its
// level, title and id, the numbers of the numbered items under it, and the card
// pictures it shows.
/**
 * @param {unknown} source
 * @returns {(Heading & { numbers: number[], cards: string[], text: string })[]}
 */
export function outline(source) {
  /** @type {(Heading & { numbers: number[], cards: string[], text: string })[]} */
  const out = [];
  /** @type {(Heading & { numbers: number[], cards: string[], text: string }) | null} */
  let current = null;
  for (const raw of String(source || '').replace(/\r\n?/g, '\n').split('\n')) {
    const heading = parseHeading(raw.replace(/\s+$/, ''));
    if (heading) {
      current = { ...heading, numbers: [], cards: [], text: '' };
      out.push(current);
      continue;
    }
    if (!current) continue;
    const numbered = /^\s*(\d+)[.)]\s+/.exec(raw);
    if (numbered) current.numbers.push(Number(numbered[1]));
    for (const m of raw.matchAll(/\[\[[^\]]+\]\]/g)) {
      const codes = parseCards(m[0]);
      if (codes) current.cards.push(codes.join(' '));
    }
    current.text += `${raw}\n`;
  }
  return out;
}

/**
 * @param {string[]} codes
 * @returns {string}
 */
function cardsAsText(codes) {
  return codes.map((c) => (c === '##' ? '▮' : `${c[0] === 'T' ? '10' : c[0]}${SUIT_SIGN[c[1]]}`)).join(' ');
}

/**
 * @param {unknown} source
 * @param {MarkdownOptions} [options]
 * @returns {DocumentFragment}
 */
export function markdownToDom(source, options = {}) {
  const root = document.createDocumentFragment();
  const lines = String(source || '').replace(/\r\n?/g, '\n').split('\n');
  /** @type {string[]} */
  let paragraph = [];
  /** @type {HTMLUListElement | HTMLOListElement | null} */
  let list = null;
  /** @type {HTMLLIElement | null} */
  let listItem = null;
  /** @param {string} text */
  const mark = (text) => inline(text, options);

  function flushParagraph() {
    if (paragraph.length) {
      root.append(h('p', null, mark(paragraph.join(' '))));
      paragraph = [];
    }
  }
  function flushList() {
    list = null;
    listItem = null;
  }

  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (!line.trim()) {
      flushParagraph();
      flushList();
      continue;
    }
    const heading = parseHeading(line);
    if (heading) {
      flushParagraph();
      flushList();
      const level = Math.min(6, heading.level + 1); // the dialog owns the h1/h2
      root.append(h(`h${Math.max(3, level)}`, heading.id ? { dataset: { section: heading.id } } : null,
        mark(heading.title)));
      continue;
    }
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*(\d+)[.)]\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      flushParagraph();
      const tag = bullet ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag);
        if (numbered && numbered[1] !== '1') list.setAttribute('start', numbered[1]);
        root.append(list);
      }
      // one of the two matched
      listItem = h('li', null, mark(bullet ? bullet[1] : /** @type {RegExpExecArray} */ (numbered)[2]));
      list.append(listItem);
      continue;
    }
    if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) {
      flushParagraph();
      flushList();
      root.append(h('hr'));
      continue;
    }
    if (listItem && /^\s+/.test(raw)) {
      listItem.append(' ', ...mark(line.trim()));
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flushParagraph();
  return root;
}

// Inline marks: card pictures [[..]], `code`, **bold**, *italic* / _italic_. Unmatched
// marks stay as text.
/**
 * @param {string} text
 * @param {MarkdownOptions} [options]
 * @returns {Node[]}
 */
export function inline(text, options = {}) {
  /** @type {Node[]} */
  const out = [];
  const pattern = /(\[\[[^\]]+\]\]|`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  let match;
  while ((match = pattern.exec(text))) {
    const token = match[0];
    const codes = token.startsWith('[[') ? parseCards(token) : null;
    if (token.startsWith('[[') && !codes) continue; // not a card picture: plain text
    if (match.index > last) out.push(document.createTextNode(text.slice(last, match.index)));
    if (codes) out.push(options.cards ? options.cards(codes) : document.createTextNode(cardsAsText(codes)));
    else if (token.startsWith('`')) out.push(h('code', { text: token.slice(1, -1) }));
    else if (token.startsWith('**') || token.startsWith('__')) out.push(h('strong', null, inline(token.slice(2, -2), options)));
    else out.push(h('em', null, inline(token.slice(1, -1), options)));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}
