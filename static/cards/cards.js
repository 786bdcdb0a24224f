// The project's own card art, drawn as SVG in code: faces (two- or four-colour deck),
// a compact face for small sizes, and one back per seat (a colour *and* a pattern, so
// colour is never the only way to tell two backs apart).

import { h } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { INTERNATIONAL, rankLetter, suitLetter } from './card-letters.js';

export const RANKS = 'A23456789TJQK';
export const SUITS = 'SHDC';

// Suit shapes in a 100 × 100 box, drawn by hand.
/** @type {Record<string, string>} */
const SUIT_PATHS = {
  H: 'M50 94C22 70 3 52 3 30C3 13 16 3 30 3C40 3 47 9 50 18C53 9 60 3 70 3C84 3 97 13 '
    + '97 30C97 52 78 70 50 94Z',
  D: 'M50 2L90 50L50 98L10 50Z',
  S: 'M50 3C60 22 97 40 97 62C97 78 85 86 73 86C63 86 56 81 53 75C54 85 59 92 67 98H33C41 '
    + '92 46 85 47 75C44 81 37 86 27 86C15 86 3 78 3 62C3 40 40 22 50 3Z',
  C: 'M50 6A20 20 0 1 1 49.9 6ZM25 38A20 20 0 1 1 24.9 38ZM75 38A20 20 0 1 1 74.9 38Z'
    + 'M45 55C45 76 40 90 32 98H68C60 90 55 76 55 55Z',
};

/** @typedef {Record<string, string>} Colours a CSS colour per suit code */

/** @type {Colours} */
const TWO_COLOUR = { S: '#1b1b1f', H: '#c0152f', D: '#c0152f', C: '#1b1b1f' };
/** @type {Colours} */
const FOUR_COLOUR = { S: '#1b1b1f', H: '#c0152f', D: '#0b55c4', C: '#137a3a' };

// Seat colours and back patterns; chosen to stay apart for common colour blindness
// too, and each has its own pattern.
export const SEAT_COLOURS = ['#c62e2e', '#2862c9', '#1d8048', '#7c3fb0',
  '#d4790b', '#0f8c94', '#7a5230', '#c43b86'];
const PATTERNS = ['stripes', 'dots', 'checks', 'waves', 'diamonds', 'rings', 'cross', 'zigzag'];

/** @param {number | null | undefined} seat */
export function seatColour(seat) {
  if (seat === null || seat === undefined || seat < 0) return '#56606e';
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

let fourColour = false;
/** @param {unknown} on */
export function setFourColour(on) { fourColour = Boolean(on); }
export function isFourColour() { return fourColour; }

// The letters faces and short texts are written with (card-letters.js; the settings
// choose them from the language and the player's choice).
/** @typedef {import('./card-letters.js').Letters} Letters */
let letters = INTERNATIONAL;
/** @param {Letters | null | undefined} table */
export function setLetters(table) { letters = table || INTERNATIONAL; }
export function getLetters() { return letters; }

/** @param {string} card */
export function rankOf(card) { return card[0]; }
/** @param {string} card */
export function suitOf(card) { return card[1]; }
/** @param {string} card */
export function rankLabel(card) { return rankLetter(card[0], letters); }
/** @param {string} suit */
export function suitSymbol(suit) { return /** @type {Record<string, string>} */ ({ S: '♠', H: '♥', D: '♦', C: '♣' })[suit] || '?'; }

/** @param {string} card */
export function cardName(card) {
  return t('card.name', { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });
}

// Short readable text for a card: "10♥".
/** @param {string} card */
export function cardText(card) {
  return `${rankLabel(card)}${suitSymbol(card[1])}`;
}

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @param {boolean} [flip]
 */
function suitShape(suit, x, y, size, colour, flip = false) {
  const s = size / 100;
  const transform = flip
    ? `translate(${x + size} ${y + size}) rotate(180) scale(${s})`
    : `translate(${x} ${y}) scale(${s})`;
  return `<path transform="${transform}" fill="${colour}" d="${SUIT_PATHS[suit]}"/>`;
}

/**
 * @param {string} label
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @param {string} [anchor]
 */
function rankText(label, x, y, size, colour, anchor = 'start') {
  const squeeze = label.length > 1 ? ' textLength="' + (size * 1.05).toFixed(1)
    + '" lengthAdjust="spacingAndGlyphs"' : '';
  return `<text x="${x}" y="${y}" font-family="Arial, Helvetica, 'DejaVu Sans', sans-serif" `
    + `font-weight="700" font-size="${size}" fill="${colour}" text-anchor="${anchor}"${squeeze}>`
    + `${label}</text>`;
}

/**
 * @param {string} body
 * @param {number} w
 * @param {number} h
 */
function svgUrl(body, w, h) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}">${body}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

/** @type {Map<string, string>} */
const cache = new Map();

/**
 * @param {string} card
 * @param {Colours} colours
 */
function faceBody(card, colours) {
  const r = card[0];
  const suit = card[1];
  const colour = colours[suit];
  const label = rankLabel(card);
  const parts = [
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf8" stroke="#3a3a44" stroke-width="2"/>',
    rankText(label, 7, 33, 32, colour),
    suitShape(suit, 64, 8, 28, colour),
  ];
  if ('JQK'.includes(r)) {
    const tint = colour === '#1b1b1f' ? '#e7e7ee' : `${colour}22`;
    parts.push(`<rect x="18" y="42" width="64" height="78" rx="6" fill="${tint}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(rankText(label, 50, 88, 42, colour, 'middle'));
    parts.push(suitShape(suit, 41, 94, 18, colour));
  } else {
    const big = r === 'A' ? 58 : 48;
    parts.push(suitShape(suit, 50 - big / 2, 82 - big / 2, big, colour));
  }
  // suit letter, bottom left, and the index upside down at the bottom right
  parts.push(`<text x="8" y="131" font-family="Arial, Helvetica, 'DejaVu Sans', sans-serif" font-size="13" font-weight="700" fill="${colour}" opacity="0.75">${suitLetter(suit, letters)}</text>`);
  parts.push(`<g transform="rotate(180 50 70)">${rankText(label, 7, 25, 20, colour)}</g>`);
  return parts.join('');
}

// Compact face for small cards: the rank and suit as large as the card allows.
/**
 * @param {string} card
 * @param {Colours} colours
 */
function miniBody(card, colours) {
  const suit = card[1];
  const colour = colours[suit];
  return [
    '<rect x="1.5" y="1.5" width="57" height="81" rx="7" fill="#fffdf8" stroke="#3a3a44" stroke-width="2.5"/>',
    rankText(rankLabel(card), 30, 37, 34, colour, 'middle'),
    suitShape(suit, 14, 44, 32, colour),
  ].join('');
}

// A tab: the top of a card only, rank and suit side by side, for a foundation pile on a
// phone when the piles are many (three rows of whole cards left your own layout too
// little height at a table of eight: docs/performance.md). Its height is 44/60 of its width (style.css `.card.tab`).
/**
 * @param {string} card
 * @param {Colours} colours
 */
function tabBody(card, colours) {
  const suit = card[1];
  const colour = colours[suit];
  return [
    '<rect x="1.5" y="1.5" width="57" height="41" rx="6" fill="#fffdf8" stroke="#3a3a44" stroke-width="2.5"/>',
    rankText(rankLabel(card), 17, 33, 30, colour, 'middle'),
    suitShape(suit, 33, 9, 24, colour),
  ].join('');
}

// `kind`: false (a whole face), true (the compact face of a small card) or 'tab'.
/** @typedef {boolean | 'tab'} FaceKind */

/**
 * @param {string} card
 * @param {FaceKind} [kind]
 * @returns {string}
 */
export function faceUrl(card, kind = false) {
  const tag = kind === 'tab' ? 't' : kind ? 'm' : 'f';
  const key = `${tag}${fourColour ? 4 : 2}${letters.id}${card}`;
  if (!cache.has(key)) {
    const colours = fourColour ? FOUR_COLOUR : TWO_COLOUR;
    cache.set(key, tag === 't' ? svgUrl(tabBody(card, colours), 60, 44)
      : tag === 'm' ? svgUrl(miniBody(card, colours), 60, 84)
        : svgUrl(faceBody(card, colours), 100, 140));
  }
  return /** @type {string} */ (cache.get(key));
}

/**
 * @param {string} kind
 * @param {string} fg
 */
function patternBody(kind, fg) {
  switch (kind) {
    case 'stripes': return `<path d="M0 10L10 0M-2 2L2 -2M8 12L12 8" stroke="${fg}" stroke-width="2.4"/>`;
    case 'dots': return `<circle cx="5" cy="5" r="2.2" fill="${fg}"/>`;
    case 'checks': return `<rect width="5" height="5" fill="${fg}"/><rect x="5" y="5" width="5" height="5" fill="${fg}"/>`;
    case 'waves': return `<path d="M0 5Q2.5 1 5 5T10 5" fill="none" stroke="${fg}" stroke-width="1.8"/>`;
    case 'diamonds': return `<path d="M5 1L9 5L5 9L1 5Z" fill="${fg}"/>`;
    case 'rings': return `<circle cx="5" cy="5" r="3" fill="none" stroke="${fg}" stroke-width="1.6"/>`;
    case 'cross': return `<path d="M5 1V9M1 5H9" stroke="${fg}" stroke-width="2"/>`;
    default: return `<path d="M0 7L2.5 3L5 7L7.5 3L10 7" fill="none" stroke="${fg}" stroke-width="1.8"/>`;
  }
}

// Makes every face's image ready before it is first shown, a few at a time while the
// page is idle. A card image is an SVG document of its own, which the browser parses and
// lays out the first time a node shows it (about 2 ms of the main thread each, more on a
// slow phone); at a Demon table of eight those first showings fell in the middle of the
// race, several a second (a Chromium trace: `IsolatedSVGDocumentHost`, docs/performance.md). The
// cards then drawn with the same address find the image made, while an <img> of it is
// held here (the page's life: 156 faces per look of the deck at most). Returns a
// function that stops the warming.
const warmed = new Map(); // address -> <img>

export function warmFaces({ mini = true, full = true, tabs = false, perSlice = 4 } = {}) {
  if (typeof Image !== 'function') return () => {};
  /** @type {string[]} */
  const urls = [];
  for (const s of SUITS) {
    for (const r of RANKS) {
      if (mini) urls.push(faceUrl(r + s, true));
      if (full) urls.push(faceUrl(r + s, false));
      if (tabs) urls.push(faceUrl(r + s, 'tab'));
    }
  }
  /** @type {number | null} */
  let handle = null;
  /** @type {(fn: () => void) => number} */
  const later = window.requestIdleCallback
    ? (fn) => window.requestIdleCallback(fn, { timeout: 2000 }) : (fn) => setTimeout(fn, 50);
  /** @type {(id: number) => void} */
  const cancel = window.cancelIdleCallback ? (id) => window.cancelIdleCallback(id) : (id) => clearTimeout(id);
  function slice() {
    handle = null;
    for (const css of urls.splice(0, perSlice)) {
      const address = css.slice(5, -2); // url("…") -> …
      if (warmed.has(address)) continue;
      const img = new Image();
      img.src = address;
      warmed.set(address, img);
    }
    if (urls.length) handle = later(slice);
  }
  handle = later(slice);
  return () => { if (handle !== null) cancel(handle); urls.length = 0; };
}

/**
 * @param {number | null | undefined} seat
 * @returns {string}
 */
export function backUrl(seat) {
  const key = `b${seat}`;
  if (!cache.has(key)) {
    const colour = seatColour(seat);
    const kind = seat === null || seat === undefined || seat < 0 ? 'checks' : PATTERNS[seat % PATTERNS.length];
    const body = [
      `<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse">${patternBody(kind, 'rgba(255,255,255,0.33)')}</pattern></defs>`,
      `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="${colour}" stroke="#22222a" stroke-width="2"/>`,
      '<rect x="8" y="8" width="84" height="124" rx="6" fill="url(#p)" stroke="rgba(255,255,255,0.85)" stroke-width="2.5"/>',
    ].join('');
    cache.set(key, svgUrl(body, 100, 140));
  }
  return /** @type {string} */ (cache.get(key));
}

// A face-up card element. `owner` tints it (foundations show whose card it is); `mini`
// is false, true (a small card's compact face) or 'tab' (faceUrl).
/**
 * @param {string} card
 * @param {{mini?: FaceKind, owner?: number | null, ownerLabel?: string | null, extraClass?: string}} [options]
 * @returns {HTMLElement}
 */
export function cardEl(card, { mini = false, owner = null, ownerLabel = null, extraClass = '' } = {}) {
  const size = mini === 'tab' ? ' tab' : mini ? ' mini' : '';
  const el = h('div', { class: `card face${size}${extraClass ? ` ${extraClass}` : ''}`,
    role: 'img', 'aria-label': cardName(card), dataset: { card } });
  el.style.backgroundImage = faceUrl(card, mini);
  if (owner !== null && owner !== undefined) {
    el.classList.add('owned');
    el.style.setProperty('--owner', seatColour(owner));
    if (ownerLabel) el.append(h('span', { class: 'owner-tag', 'aria-hidden': 'true', text: ownerLabel }));
  }
  return el;
}

/**
 * @param {number | null | undefined} seat
 * @param {{mini?: boolean, label?: string | null, extraClass?: string}} [options]
 * @returns {HTMLElement}
 */
export function backEl(seat, { mini = false, label = null, extraClass = '' } = {}) {
  const el = h('div', { class: `card back${mini ? ' mini' : ''}${extraClass ? ` ${extraClass}` : ''}`,
    role: 'img', 'aria-label': label || t('card.back') });
  el.style.backgroundImage = backUrl(seat);
  return el;
}

/**
 * @param {string} [label]
 * @param {string} [extraClass]
 * @returns {HTMLElement}
 */
export function slotEl(label = '', extraClass = '') {
  return h('div', { class: `card slot${extraClass ? ` ${extraClass}` : ''}` }, label);
}
