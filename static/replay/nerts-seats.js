// A Nerts round's seats as the replay viewer shows them (replay.js): one seat large and
// the others small, each with its Nerts pile (the top card and how many are left), its
// four work piles fanned, its stock and the waste's cards on view. Read only: nothing
// here is pressed, so it draws each table whole (a replay steps a few times a second at
// most). The seat view is the server's (docs/protocol.md, "Round view"); the live Nerts
// table (static/nerts/) has its own panels for play.

import { h, replaceChildren } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { cardEl, backEl, slotEl, cardText } from '../cards/cards.js';
import { playerAtSeat, colourOfSeat, shownName } from '../demon/demon-model.js';

// The stylesheet comes with the first Nerts replay drawn: the first visit loads none of it.
const STYLES = new URL('../styles/nerts-replay.css', import.meta.url).href;
function loadStyles() {
  if (document.querySelector('link[data-nerts-replay-styles]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: STYLES, dataset: { nertsReplayStyles: '' } }));
}

/** @typedef {import('./replay-model.js').NertsSeatView} NertsSeatView */
/** @typedef {import('../demon/protocol-types.js').RoomState} RoomState */

/**
 * @param {NertsSeatView} view
 * @param {number} seat
 * @param {RoomState} state
 * @param {{ big: boolean, home: number }} how
 */
function seatEl(view, seat, state, { big, home }) {
  const player = playerAtSeat(state, seat);
  const colour = colourOfSeat(state, seat);
  const mini = !big;
  const top = view.nerts_top;
  const nerts = h('div', { class: 'nerts-pile', dataset: { src: 'nerts' }, role: 'group',
    'aria-label': top ? t('replay.nertsPile', { card: cardText(top), n: view.nerts_count }) : t('replay.nertsPileEmpty') },
  top ? cardEl(top, { mini }) : slotEl(),
  h('span', { class: 'nerts-count', 'aria-hidden': 'true', text: String(view.nerts_count) }));
  const work = (view.work || []).map((pile, i) => h('div', { class: 'work-pile', dataset: { src: String(i) }, role: 'group',
    'aria-label': pile.length ? t('replay.workPile', { n: i + 1, cards: pile.map(cardText).join(' ') })
      : t('replay.workPileEmpty', { n: i + 1 }) },
  pile.length ? pile.map((c, j) => {
    const node = cardEl(c, { mini });
    node.style.setProperty('--j', String(j));
    return node;
  }) : slotEl()));
  const waste = view.waste || [];
  return h('section', { class: `nerts-seat${big ? ' big' : ''}`, dataset: { seat: String(seat) },
    'aria-label': player ? shownName(player, t) : String(seat + 1) },
  h('div', { class: 'nerts-seat-head' },
    backEl(colour, { mini: true, extraClass: 'swatch' }),
    h('span', { class: 'nerts-name', text: player ? shownName(player, t) : String(seat + 1) }),
    h('span', { class: 'nerts-home', text: t('table.home', { n: home }) })),
  h('div', { class: 'nerts-layout' },
    nerts,
    h('div', { class: 'nerts-work' }, work),
    h('div', { class: 'nerts-stock', role: 'img', 'aria-label': t('table.stockCount', { n: view.stock }) },
      view.stock ? backEl(colour, { mini }) : slotEl(),
      h('span', { class: 'nerts-count', 'aria-hidden': 'true', text: String(view.stock) })),
    h('div', { class: 'nerts-waste', dataset: { src: 'waste' }, role: 'group',
      'aria-label': waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: view.waste_count })
        : t('table.wasteEmpty') },
    waste.length ? waste.map((c, i) => {
      const node = cardEl(c, { mini });
      node.style.setProperty('--i', String(i));
      return node;
    }) : slotEl())));
}

/**
 * @param {HTMLElement} bigBox where the large seat goes
 * @param {HTMLElement} othersBox where the other seats go
 */
export function createNertsSeats(bigBox, othersBox) {
  loadStyles();
  /** @param {{ state: RoomState, round: import('../demon/protocol-types.js').Round, seat: number }} v */
  function draw({ state, round, seat: big }) {
    const seats = /** @type {NertsSeatView[]} */ (/** @type {unknown} */ (round.seats));
    const home = round.cards_home || [];
    /** @param {number} s */
    const one = (s) => seatEl(seats[s], s, state, { big: s === big, home: home[s] ?? 0 });
    replaceChildren(bigBox, seats[big] ? one(big) : null);
    replaceChildren(othersBox, seats.map((_, s) => (s === big ? null : one(s))));
  }
  return { draw };
}
