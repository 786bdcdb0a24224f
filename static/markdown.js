// A tiny markdown reader for the rules page: headings, paragraphs, bullet and numbered
// lists, **bold**, *italic* and `code`. It builds DOM nodes and text nodes only — no
// string ever becomes HTML.

import { h } from './dom.js';

export function markdownToDom(source) {
  const root = document.createDocumentFragment();
  const lines = String(source || '').replace(/\r\n?/g, '\n').split('\n');
  let paragraph = [];
  let list = null;
  let listItem = null;

  function flushParagraph() {
    if (paragraph.length) {
      root.append(h('p', null, inline(paragraph.join(' '))));
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
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      const level = Math.min(6, heading[1].length + 1); // the dialog owns the h1/h2
      root.append(h(`h${Math.max(3, level)}`, null, inline(heading[2])));
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
      listItem = h('li', null, inline(bullet ? bullet[1] : numbered[2]));
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
      listItem.append(' ', ...inline(line.trim()));
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flushParagraph();
  return root;
}

// Inline marks: `code`, **bold**, *italic* / _italic_. Unmatched marks stay as text.
export function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  let match;
  while ((match = pattern.exec(text))) {
    if (match.index > last) out.push(document.createTextNode(text.slice(last, match.index)));
    const token = match[0];
    if (token.startsWith('`')) out.push(h('code', { text: token.slice(1, -1) }));
    else if (token.startsWith('**') || token.startsWith('__')) out.push(h('strong', null, inline(token.slice(2, -2))));
    else out.push(h('em', null, inline(token.slice(1, -1))));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}
