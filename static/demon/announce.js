// What a screen reader is told at the Demon table, in words: a play as it happens (for
// the polite live region the room keeps), and what the foundations and another seat's
// layout hold (read when the keyboard reaches them). Pure: the caller gives `t` and the
// card words (cards.js: cardName for a spoken name, cardText for "10♥"); nothing here
// touches the page.

// A move event (docs/protocol.md, "Events") as one sentence, or null when it plays no
// card: a card to a foundation or cards onto a pile, for anyone; a draw only for `mine`
// (the card now on your waste is what you need to hear; someone else's draw is noise).
/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */
/** @typedef {(card: string) => string} CardWords */

/**
 * @param {import('./protocol-types.js').MoveEvent | null | undefined} event
 * @param {{t: Translate, cardName: CardWords, name: string, mine?: boolean}} words
 * @returns {string | null}
 */
export function moveWords(event, { t, cardName, name, mine = false }) {
  const engine = event && Array.isArray(event.engine) ? event.engine : [];
  const parts = [];
  for (const e of engine) {
    if (e.type === 'played') {
      parts.push(t('say.played', { name, card: cardName(/** @type {string} */ (e.card)), n: /** @type {number} */ (e.pile) + 1 }));
    } else if (e.type === 'moved') {
      parts.push(t('say.moved', { name, cards: /** @type {string[]} */ (e.cards).map(cardName).join(', '), n: /** @type {number} */ (e.dst) + 1 }));
    } else if (e.type === 'drew' && mine && e.waste && e.waste.length) {
      parts.push(t('say.drew', { name, card: cardName(e.waste[e.waste.length - 1]) }));
    }
  }
  if (!parts.length) return null;
  for (const e of engine) {
    if (e.type === 'turned_up') parts.push(t('say.turnedUp', { card: cardName(/** @type {string} */ (e.card)) }));
  }
  return parts.join('. ');
}

// The shared foundations: each pile's top card and whose it is.
/**
 * @param {(import('./protocol-types.js').Foundation | null)[] | null | undefined} foundations
 * @param {{t: Translate, cardText: CardWords, nameOf: (seat: number) => string}} words
 * @returns {string}
 */
export function foundationsWords(foundations, { t, cardText, nameOf }) {
  return (foundations || []).map((f, i) => (f
    ? t('table.foundationPile', { n: i + 1, card: cardText(f.top), name: nameOf(f.seat) })
    : null)).filter(Boolean).join('. ');
}

// One seat's layout (its `seat_view`): cards home, stock, waste and every pile.
/**
 * @param {import('./protocol-types.js').SeatView | null | undefined} view
 * @param {number} home
 * @param {{t: Translate, cardText: CardWords}} words
 * @returns {string}
 */
export function layoutWords(view, home, { t, cardText }) {
  if (!view) return '';
  const waste = view.waste || [];
  return [
    t('table.home', { n: home }),
    t('table.stockCount', { n: view.stock ?? 0 }),
    waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: view.waste_count ?? waste.length })
      : t('table.wasteEmpty'),
    ...(view.tableau || []).map((pile, i) => t('table.pileLabel', { n: i + 1, down: pile.down,
      up: pile.up.map(cardText).join(' ') || t('table.none') })),
  ].join('. ');
}
