// What a screen reader is told at a Nerts table, in words (as demon/announce.js for
// Demon): a play as it happens, the stall, and what another seat's layout holds (read
// when the keyboard reaches its panel). Pure: the caller gives `t` and the card words
// (cards.js: cardName for a spoken name, cardText for "10♥").

/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */
/** @typedef {(card: string) => string} CardWords */
/** @typedef {import('./nerts-types.js').NertsEngineEvent} NertsEngineEvent */
/** @typedef {import('./nerts-types.js').NertsSeatView} NertsSeatView */

/**
 * A move event as one sentence, or null when it says nothing worth hearing: a card to
 * a foundation, cards onto a work pile, a space filled from the Nerts pile (H3), for
 * anyone; a draw only for `mine` (the card now on your waste); "Nerts!" always.
 * @param {{engine?: NertsEngineEvent[] | unknown[]} | null | undefined} event
 * @param {{t: Translate, cardName: CardWords, name: string, mine?: boolean}} words
 * @returns {string | null}
 */
export function nertsMoveWords(event, { t, cardName, name, mine = false }) {
  const engine = /** @type {NertsEngineEvent[]} */ (event && Array.isArray(event.engine) ? event.engine : []);
  const parts = [];
  for (const e of engine) {
    if (e.type === 'played' && e.card) {
      parts.push(t('say.played', { name, card: cardName(e.card), n: (e.pile ?? 0) + 1 }));
    } else if (e.type === 'moved' && e.cards) {
      parts.push(t('say.moved', { name, cards: e.cards.map(cardName).join(', '), n: (e.dst ?? 0) + 1 }));
    } else if (e.type === 'filled' && e.card) {
      parts.push(t('nertsTable.sayFilled', { name, card: cardName(e.card), n: (e.pile ?? 0) + 1 }));
    } else if (e.type === 'drew' && mine && e.waste && e.waste.length) {
      parts.push(t('say.drew', { name, card: cardName(e.waste[e.waste.length - 1]) }));
    }
  }
  for (const e of engine) {
    if (e.type === 'turned_up' && e.card && parts.length) {
      parts.push(t('nertsTable.sayTurnedUp', { card: cardName(e.card), n: e.nerts_count ?? 0 }));
    }
  }
  if (engine.some((e) => e.type === 'nerts')) parts.push(t('nertsTable.sayNerts', { name }));
  return parts.length ? parts.join('. ') : null;
}

/**
 * The stall (N13), said to everyone.
 * @param {Translate} t
 */
export function stallWords(t) {
  return t('nertsTable.stall');
}

/**
 * One seat's layout in words: its Nerts pile, cards home, stock, waste and work piles.
 * @param {NertsSeatView | null | undefined} view
 * @param {number} home cards on the foundations
 * @param {{t: Translate, cardText: CardWords}} words
 * @returns {string}
 */
export function nertsLayoutWords(view, home, { t, cardText }) {
  if (!view) return '';
  const waste = view.waste || [];
  return [
    view.nerts_top ? t('nertsTable.nertsPile', { card: cardText(view.nerts_top), n: view.nerts_count })
      : t('nertsTable.nertsEmpty'),
    t('nertsTable.home', { n: home }),
    t('table.stockCount', { n: view.stock ?? 0 }),
    waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: view.waste_count ?? waste.length })
      : t('table.wasteEmpty'),
    ...(view.work || []).map((pile, i) => workWords(pile, i, { t, cardText })),
  ].join('. ');
}

/**
 * A work pile in words: its number and its cards, bottom first, or empty.
 * @param {string[]} pile
 * @param {number} i
 * @param {{t: Translate, cardText: CardWords}} words
 */
export function workWords(pile, i, { t, cardText }) {
  return t('nertsTable.workPile', { n: i + 1, cards: pile.length ? pile.map(cardText).join(' ') : t('nertsTable.emptyPile') });
}
