// The Nerts table's own panels, drawn from the same `view` as Demon's
// (demon-panels.js TableView): your layout (the Nerts pile, large, with its count and
// its stake; stock; waste; the four work piles, fanned) and every other seat's panel.
// As Demon's, each is drawn in keyed pieces (dom.js keyedChildren), each made again only
// when what it shows changed, and no panel sends anything.

import { h, keyedChildren, setText, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { cardEl, backEl, slotEl, seatColour, cardText } from '../cards/cards.js';
import { playerName, playerAtSeat, colourOfSeat } from '../demon/demon-model.js';
import { opponentHead, matchPoints, countedTop, isNarrow, watchNarrow } from '../demon/demon-panels.js';
import { sameParts } from '../common/keyed.js';
import { nertsLayoutWords, workWords } from './nerts-words.js';

/** @typedef {import('../demon/demon-panels.js').TableView} TableView */
/** @typedef {import('../demon/demon-panels.js').MuteButton} MuteButton */
/** @typedef {import('../demon/protocol-types.js').RoomState} RoomState */
/** @typedef {import('../demon/protocol-types.js').Round} Round */
/** @typedef {import('../demon/protocol-types.js').Player} Player */
/** @typedef {import('./nerts-types.js').NertsSeatView} NertsSeatView */
/** @typedef {import('./nerts-types.js').NertsAction} NertsAction */

/**
 * A Nerts round's seat views (the round's shape is Demon's; its seats are Nerts').
 * @param {Round} r
 * @returns {NertsSeatView[]}
 */
export function nertsSeats(r) {
  return /** @type {NertsSeatView[]} */ (/** @type {unknown} */ (r.seats));
}

/**
 * Your own layout. `draw()` answers whether any piece was made. A drawn card fans in
 * when the waste grew.
 * @param {HTMLElement} el
 * @param {{onDraw: () => void, extra?: HTMLElement | null}} options
 */
export function createNertsMine(el, { onDraw, extra = null }) {
  /** @type {string | null} */
  let lastWaste = null;
  let lastWasteCount = 0;
  const top = h('div', { class: 'mine-top nerts-top' });
  const work = h('div', { class: 'tableau work' });
  const pieces = keyedChildren(el);
  const topPieces = keyedChildren(top);
  const piles = keyedChildren(work);

  /**
   * @param {Pick<TableView, 'state' | 'round' | 'seat' | 'legal' | 'canAct'>} view
   * @returns {boolean}
   */
  function draw({ state: st, round: r, seat, legal, canAct }) {
    if (seat === null) {
      setHidden(el, true);
      return pieces.patch([]) > 0;
    }
    setHidden(el, false);
    const lang = t('lang.code');
    const me = nertsSeats(r)[seat] || null;
    const myColour = colourOfSeat(st, seat);
    el.style.setProperty('--seat', seatColour(myColour));
    if (!me) {
      return pieces.patch([{ key: 'waiting', parts: [lang], make: () => h('p', { class: 'note', text: t('table.waitingSeat') }) }]) > 0;
    }
    const acts = /** @type {NertsAction[]} */ (/** @type {unknown} */ (legal));
    const hasDraw = acts.some((a) => a.type === 'draw');
    const hasRecycle = acts.some((a) => a.type === 'recycle');
    const stuck = Boolean(st.phase === 'playing' && r.stuck && r.stuck.includes(seat));
    const home = r.cards_home ? r.cards_home[seat] ?? 0 : 0;
    const total = matchPoints(st, playerAtSeat(st, seat));
    const name = playerName(st, seat, t);
    const waste = me.waste;
    const wasteKey = `${waste.join(' ')}|${me.waste_count}|${me.stock}`;
    const drawn = lastWaste !== null && wasteKey !== lastWaste && me.waste_count > lastWasteCount;
    lastWaste = wasteKey;
    lastWasteCount = me.waste_count;

    let made = pieces.patch([
      { key: 'head', parts: [name, myColour, stuck, home, total, lang],
        make: () => h('header', { class: 'mine-head' },
          backEl(myColour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name }) }),
          h('span', { class: 'opp-name', text: name }),
          h('span', { class: 'tag you', text: t('lobby.you') }),
          stuck ? h('span', { class: 'tag stuck', text: t('table.youStuck') }) : null,
          h('span', { class: 'home-count', title: t('table.cardsHome'), text: t('nertsTable.home', { n: home }) }),
          total !== null ? h('span', { class: 'total', text: t('table.totalIs', { n: total }) }) : null,
          extra) },
      { key: 'top', parts: [], make: () => top },
      { key: 'work', parts: [], make: () => work },
    ]);
    made += topPieces.patch([
      { key: 'nerts', parts: [me.nerts_top, me.nerts_count, canAct, lang],
        make: () => nertsPileEl(me, canAct) },
      { key: 'stock', parts: [me.stock, canAct, hasDraw, hasRecycle, myColour, lang, drawCount(st)],
        make: () => h('button', { type: 'button', class: 'stock', id: 'stock', dataset: { focus: 'stock', src: 'stock' },
          disabled: !canAct || (!hasDraw && !hasRecycle), 'aria-keyshortcuts': 'D Space',
          'aria-label': hasRecycle ? t('table.recycle', { n: me.stock }) : t('nertsTable.drawLabel', { n: me.stock, k: drawCount(st) }),
          onclick: onDraw },
        me.stock ? backEl(myColour, { label: t('table.stockCount', { n: me.stock }) }) : slotEl('↺', 'recycle'),
        h('span', { class: 'stock-count', text: String(me.stock) })) },
      { key: 'waste', parts: [wasteKey, canAct, lang],
        make: () => h('div', { class: `waste fan-${waste.length}`, dataset: { focus: 'waste', src: 'waste' }, tabindex: '0',
          role: 'button', 'aria-keyshortcuts': 'W',
          'aria-label': waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: me.waste_count })
            : t('table.wasteEmpty') },
        waste.length ? waste.map((c, i) => {
          const node = cardEl(c, { extraClass: drawn ? 'dealt' : '' });
          node.style.setProperty('--i', String(i));
          if (i === waste.length - 1 && canAct) node.dataset.pick = 'w';
          return node;
        }) : slotEl()) },
    ]);
    made += piles.patch(me.work.map((pile, i) => ({
      key: i, parts: [pile.join(' '), canAct, lang], make: () => workPileEl(pile, i, canAct) })));
    return made > 0;
  }

  return { draw };
}

/**
 * How many cards a draw turns: H2, the room's house rule (3 by default, or 1).
 * @param {RoomState} st
 * @returns {number}
 */
export function drawCount(st) {
  const rules = /** @type {{house_rules?: import('./nerts-types.js').HouseRules}} */ (st.options || {}).house_rules;
  return rules && rules.draw === 1 ? 1 : 3;
}

// The Nerts pile: its top card face up, how many cards it holds (each left at the end
// costs two points, N14), and the stake said beside it.
/**
 * @param {NertsSeatView} me
 * @param {boolean} canAct
 */
function nertsPileEl(me, canAct) {
  const label = me.nerts_top ? t('nertsTable.nertsPile', { card: cardText(me.nerts_top), n: me.nerts_count })
    : t('nertsTable.nertsEmpty');
  let top = null;
  if (me.nerts_top) {
    top = cardEl(me.nerts_top);
    if (canAct) top.dataset.pick = 'n';
  }
  // the count and the stake stand beside the pile, not in it: its name says them in
  // words, and a button's visible text must be part of its name
  return h('div', { class: 'nerts-slot' },
    h('div', { class: `nerts-pile${me.nerts_count ? '' : ' done'}`, role: 'button', tabindex: '0',
      dataset: { focus: 'nerts', src: 'nerts' }, 'aria-keyshortcuts': 'N', 'aria-label': label },
    me.nerts_count > 1 ? backEl(null, { extraClass: 'under' }) : null,
    top || slotEl()),
    h('span', { class: 'nerts-count', 'aria-hidden': 'true', text: String(me.nerts_count) }),
    h('span', { class: 'nerts-stake', 'aria-hidden': 'true', text: t('nertsTable.stake') }));
}

/**
 * A work pile of your own: every card face up, fanned; each card can be picked (with
 * the cards above it).
 * @param {string[]} pile
 * @param {number} i
 * @param {boolean} canAct
 */
function workPileEl(pile, i, canAct) {
  const node = h('div', { class: 'pile', role: 'button', tabindex: '0',
    dataset: { target: `t:${i}`, focus: `pile-${i}`, src: String(i) },
    'aria-keyshortcuts': String(i + 1), 'aria-label': workWords(pile, i, { t, cardText }) });
  node.style.setProperty('--d', '0');
  node.style.setProperty('--u', String(Math.max(0, pile.length - 1)));
  pile.forEach((c, j) => {
    const card = cardEl(c, { extraClass: 'up' });
    card.style.setProperty('--d', '0');
    card.style.setProperty('--j', String(j));
    if (canAct) card.dataset.pick = `k:${i}:${j}`;
    node.append(card);
  });
  if (!pile.length) node.append(slotEl('', 'empty-work'));
  node.append(h('span', { class: 'pile-key', 'aria-hidden': 'true', text: String(i + 1) }));
  return node;
}

// Every other seat, small: its head (name, connection, tags, cards home), its Nerts pile
// (top and count), stock (count), waste top, and each work pile's top (a spectator, who
// has the room, sees each work pile fanned). One panel per seat, kept for the round.
/** @param {HTMLElement} el */
export function createNertsOpponents(el) {
  const panels = keyedChildren(el);
  /** @type {Map<number, ReturnType<typeof opponentPanel>>} */
  const bySeat = new Map();

  /** @type {Pick<TableView, 'state' | 'round' | 'seat' | 'muteButton'> | null} the view drawn last */
  let last = null;
  const unwatch = watchNarrow(() => { if (last) draw(last); }); // the counted tops (countedTop)

  /** @param {Pick<TableView, 'state' | 'round' | 'seat' | 'muteButton'>} v */
  function draw(v) {
    last = v;
    const { state: st, round: r, seat: me, muteButton = null } = v;
    const seats = nertsSeats(r).map((view, seat) => ({ seat, view })).filter((s) => s.seat !== me);
    el.classList.toggle('many', seats.length > 3);
    el.classList.toggle('few', seats.length <= 2);
    el.classList.toggle('spectating', me === null);
    panels.patch(seats.map(({ seat }) => ({ key: seat, parts: [], make: () => {
      const panel = opponentPanel(seat);
      bySeat.set(seat, panel);
      return panel.el;
    } })));
    for (const seat of [...bySeat.keys()]) if (!seats.some((s) => s.seat === seat)) bySeat.delete(seat);
    const live = st.phase === 'playing';
    const lang = t('lang.code');
    for (const { seat, view } of seats) {
      /** @type {ReturnType<typeof opponentPanel>} */ (bySeat.get(seat)).draw(st, {
        view, p: playerAtSeat(st, seat), lang, spectating: me === null, muteButton,
        stuck: Boolean(live && r.stuck && r.stuck.includes(seat)),
        voted: Boolean(live && r.votes && r.votes.includes(seat)),
        home: r.cards_home ? r.cards_home[seat] ?? 0 : 0,
        colour: colourOfSeat(st, seat),
      });
    }
  }

  return { draw, destroy: () => { unwatch(); last = null; } };
}

/** @param {number} seat */
function opponentPanel(seat) {
  const el = h('section', { class: 'opp nerts-opp', dataset: { seat: String(seat), focus: `opp-${seat}` }, tabindex: '0',
    'aria-describedby': `opp-words-${seat}` });
  const cards = h('div', { class: 'opp-cards' });
  const pileBox = h('div', { class: 'opp-piles' });
  const words = h('p', { id: `opp-words-${seat}`, hidden: true });
  const pieces = keyedChildren(el);
  const cardPieces = keyedChildren(cards);
  const piles = keyedChildren(pileBox);
  /** @type {unknown[] | null} */
  let wordsOf = null;
  /** @type {Element | null} */
  let homeCount = null;
  /** @type {unknown[] | null} */
  let drawnFrom = null;

  /**
   * @param {RoomState} st
   * @param {{view: NertsSeatView, p: Player | null, lang: string, spectating: boolean, muteButton: MuteButton | null,
   *   stuck: boolean, voted: boolean, home: number, colour: number}} seatDrawing
   */
  function draw(st, { view, p, lang, spectating, muteButton, stuck, voted, home, colour }) {
    const name = playerName(st, seat, t);
    const narrow = isNarrow();
    const from = [view, p, name, lang, spectating, muteButton, stuck, voted, home, colour, st.round_no, narrow];
    if (drawnFrom && sameParts(drawnFrom, from)) return;
    drawnFrom = from;
    const cls = `opp nerts-opp${p && !p.connected ? ' away' : ''}`;
    if (el.className !== cls) el.className = cls;
    const label = t('table.layoutOf', { name });
    if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
    const tint = seatColour(colour);
    if (el.style.getPropertyValue('--seat') !== tint) el.style.setProperty('--seat', tint);
    pieces.patch([
      { key: 'head', parts: [p, name, stuck, voted, colour, lang, muteButton, st.round_no],
        make: () => {
          const head = opponentHead(p, { name, stuck, voted, colour, muteButton, total: matchPoints(st, p) });
          homeCount = head.querySelector('.home-count');
          return head;
        } },
      { key: 'cards', parts: [], make: () => cards },
      { key: 'words', parts: [], make: () => words },
    ]);
    if (homeCount) setText(homeCount, t('nertsTable.homeShort', { n: home }));
    const wasteTop = view.waste.length ? view.waste[view.waste.length - 1] : null;
    cardPieces.patch([
      // (counted: on a phone the count lies where the small card's suit is, demon-panels.js countedTop)
      { key: 'nerts', parts: [view.nerts_top, view.nerts_count, lang, narrow], make: () => h('div', { class: `opp-nerts${narrow && view.nerts_top ? ' counted' : ''}`, dataset: { src: 'nerts' } },
        view.nerts_top ? countedTop(view.nerts_top, narrow) : slotEl(),
        h('span', { class: 'stock-count nerts-left', title: t('nertsTable.nertsLeft'), text: String(view.nerts_count) })) },
      { key: 'stock', parts: [view.stock, colour], make: () => h('div', { class: 'opp-stock', dataset: { src: 'stock' } },
        view.stock ? backEl(colour, { mini: true }) : slotEl(),
        h('span', { class: 'stock-count', text: String(view.stock) })) },
      { key: 'waste', parts: [wasteTop, lang], make: () => h('div', { class: 'opp-waste', dataset: { src: 'waste' } },
        wasteTop ? cardEl(wasteTop, { mini: true }) : slotEl()) },
      { key: 'piles', parts: [], make: () => pileBox },
    ]);
    piles.patch(view.work.map((pile, i) => {
      const fan = spectating && pile.length > 1;
      const top = pile.length ? pile[pile.length - 1] : null;
      return { key: i, parts: [fan ? pile.join(' ') : `${top}|${pile.length}`, lang, narrow], make: () => opponentWork(pile, i, { fan, top, narrow }) };
    }));
    if (!wordsOf || !sameParts(wordsOf, [view, home, lang])) {
      wordsOf = [view, home, lang];
      setText(words, nertsLayoutWords(view, home, { t, cardText }));
    }
  }

  return { el, draw };
}

/**
 * @param {string[]} pile
 * @param {number} i
 * @param {{fan: boolean, top: string | null, narrow: boolean}} look
 */
function opponentWork(pile, i, { fan, top, narrow }) {
  const shown = fan
    ? pile.map((c, j) => { const n = cardEl(c, { mini: true }); n.style.setProperty('--j', String(j)); return n; })
    : top ? countedTop(top, narrow && !fan && pile.length > 1) : null;
  const counted = narrow && !fan && pile.length > 1;
  return h('div', { class: `opp-pile${fan ? ' fanned' : ''}${counted ? ' counted' : ''}`, dataset: { src: String(i) } },
    shown || slotEl(),
    !fan && pile.length > 1 ? h('span', { class: 'down-count', 'aria-hidden': 'true', text: `${pile.length}` }) : null);
}
