// The Demon table's panels, each drawn from a `view` of the model:
//   {state, round, seat (null: spectating), legal (this seat's, [] when it cannot act),
//    canAct, timeEnd, isHost}
// Every panel keeps a little memory: the status bar is updated in place, and the other
// panels are drawn in keyed pieces (dom.js keyedChildren), each made again only when
// what it shows changed, so a play costs the pieces it changed, not the table. No panel
// sends anything: the buttons call the handlers the table gives them.

import { h, replaceChildren, icon, formatClock, keyedChildren, setText, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { cardEl, backEl, slotEl, seatColour, cardText, faceUrl } from '../cards/cards.js';
import { playerName, shownName, seatedPlayers, playerAtSeat, playerById, colourOfSeat } from './demon-model.js';
import { botBadge, botLevel } from './bot-badge.js';
import { foundationsWords, layoutWords } from './announce.js';
import { voteMatters, voteCount, endChoice, isStuck, watchersOf, spectatorFate, matchOutcome } from './round-status.js';
import { sameParts } from '../common/keyed.js';
import { gameLine, gameName, gameOf, formatScore, callKey, reasonText } from '../racing/game-options.js';
import { dailyNext } from '../daily/daily-results.js';

/** @typedef {import('./protocol-types.js').RoomState} RoomState */
/** @typedef {import('./protocol-types.js').Round} Round */
/** @typedef {import('./protocol-types.js').Player} Player */
/** @typedef {import('./protocol-types.js').Pile} Pile */
/** @typedef {import('./protocol-types.js').SeatView} SeatView */
/** @typedef {import('./protocol-types.js').DemonAction} DemonAction */
/** @typedef {(player: Player | null) => HTMLElement | null} MuteButton emotes.js: a toggle hiding a player's emotes */

/**
 * What the table draws its panels from (table.js `view()`; a replay, replay/replay.js,
 * draws some of the panels from the parts they read).
 * @typedef {object} TableView
 * @property {RoomState} state
 * @property {Round} round
 * @property {number | null} seat null: spectating
 * @property {string | null} you this browser's player id
 * @property {DemonAction[]} legal this seat's, [] when it cannot act
 * @property {boolean} canAct
 * @property {number | null} timeEnd
 * @property {boolean} isHost
 * @property {MuteButton | null} [muteButton]
 */

/**
 * A piece a keyed container (dom.js keyedChildren) draws: made again when `parts` differ.
 * @typedef {{key: string | number, parts: unknown[], make: () => HTMLElement}} KeyedItem
 */

// A phone's width: the foundations' tabs and the counted tops of other seats' piles
// (style.css, `max-width: 600px`). A panel drawn at one width is drawn again when the
// window crosses it (`watchNarrow`).
const narrowQuery = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(max-width: 600px)') : null;

/** @returns {boolean} */
export function isNarrow() { return Boolean(narrowQuery && narrowQuery.matches); }

/**
 * @param {() => void} redraw called when the window crosses a phone's width
 * @returns {() => void} stops watching
 */
export function watchNarrow(redraw) {
  if (!narrowQuery) return () => {};
  narrowQuery.addEventListener('change', redraw);
  return () => narrowQuery.removeEventListener('change', redraw);
}

// The letter on a foundation card saying whose it is.
/**
 * @param {RoomState} state
 * @param {number} seat
 */
function ownerTag(state, seat) {
  const name = playerName(state, seat);
  const number = botLevel(playerAtSeat(state, seat)) ? /\d+$/.exec(name) : null;
  if (number) return number[0]; // "Bot 2" -> "2": every bot's initial would be "B"
  return [...name][0] ? [...name][0].toUpperCase() : String(seat + 1);
}

/** @param {Player | null} p */
function connText(p) {
  if (!p) return '';
  if (p.absent) return t('lobby.absent');
  return p.connected ? t('lobby.online') : t('lobby.offline');
}

// The status bar: round, time left, phase, the choice of ending the round. Built once
// and updated in place: in a busy room (bots move many times a second) a bar rebuilt on
// every event replaced the vote button between the press and the release of a click,
// and the click was lost. `onVote(how)`: 'toggle' (vote, or take the vote back), 'end'
// (alone with bots: end it now), 'bots' (alone with bots: let them finish).
// `onCloseTable()`: the host of an open table takes it off the open list mid-round (the
// lobby has its switch, the results their own button), so that no more strangers come.
/**
 * @param {HTMLElement} el
 * @param {{onVote: (how: string) => void, onCloseTable: () => void}} handlers
 */
export function createStatusBar(el, { onVote, onCloseTable }) {
  const fixed = {
    // which game is on (Demon, or Nerts with its house rules); on a phone only a screen
    // reader hears it, since the bar must stay one line at a table of eight (style.css)
    game: h('span', { class: 'game-line' }, h('span', { class: 'long' }), h('span', { class: 'short' })),
    roundNo: h('span', { class: 'round-no' }),
    timeLeft: h('span', { class: 'time-left', hidden: true }, icon('clock'), h('span', { id: 'time-left' })),
    phase: h('span', { class: 'phase' }),
    spectator: h('span', { class: 'tag spectator' }),
    watching: h('span', { class: 'watching' }),
    count: h('span', { class: 'count' }),
    label: h('span', { class: 'vote-label' }, h('span', { class: 'long' }), h('span', { class: 'short' })),
  };
  /** @type {HTMLElement} */
  const vote = h('button', { type: 'button', class: 'vote', id: 'vote-end', 'aria-keyshortcuts': 'V',
    onclick: () => onVote(vote.dataset.how || 'toggle') }, fixed.label, fixed.count);
  // Alone with bots: the round can also be left to them, played out fast.
  const botsFinish = h('button', { type: 'button', class: 'vote quiet', id: 'bots-finish', 'aria-keyshortcuts': 'B',
    onclick: () => onVote('bots') }, h('span', { class: 'long' }), h('span', { class: 'short' }));
  // Each label in two lengths: a phone shows the short one (style.css), so the bar
  // keeps to one line and the player's own cards keep their room.
  /**
   * @param {HTMLElement} node
   * @param {string} long
   * @param {string} [short]
   */
  const label = (node, long, short = long) => {
    setText(/** @type {Element} */ (node.querySelector('.long')), long);
    setText(/** @type {Element} */ (node.querySelector('.short')), short);
  };
  // its words on a wide screen; on a phone, where the bar must keep to one line, an eye
  // struck through (named by the same words)
  const closeTable = h('button', { type: 'button', class: 'close-table', id: 'bar-close-table',
    onclick: () => onCloseTable() }, h('span', { class: 'long' }), h('span', { class: 'short' }, icon('unlist')));
  const parts = { ...fixed, vote, botsFinish, closeTable, finishing: h('span', { class: 'finishing', role: 'status' },
    h('span', { class: 'long' }), h('span', { class: 'short' })) };

  /** @param {Pick<TableView, 'state' | 'round' | 'seat' | 'timeEnd' | 'you'> & {isHost?: boolean}} view */
  function update({ state: st, round: r, seat, timeEnd, you, isHost = false }) {
    const opts = st.options || {};
    const { votes, voters } = voteCount(st);
    const voted = Boolean(r && r.votes && seat !== null && r.votes.includes(seat));
    const choice = endChoice(st, seat);
    const phaseText = st.phase === 'playing' ? null : t(`phase.${st.phase}`);
    label(parts.game, gameLine(opts, t), gameName(gameOf(opts), t));
    setText(parts.roundNo, t('table.round', { n: st.round_no ?? 1, of: opts.rounds ?? '?' }));
    setHidden(parts.timeLeft, timeEnd === null);
    setText(parts.phase, phaseText || '');
    // a spectator is told the truth: dealt in at the next round, or watching a full table
    const fate = seat === null ? spectatorFate(st, you) : null;
    setText(parts.spectator, fate ? t(fate === 'next' ? 'table.spectatingNext' : 'table.spectatingFull')
      : t('table.spectating'));
    const watchers = watchersOf(st);
    setText(parts.watching, t('table.watchers', { n: watchers.length }));
    const watcherNames = watchers.map((p) => p.name).join(', ');
    if (parts.watching.title !== watcherNames) parts.watching.title = watcherNames;
    const canVote = seat !== null && st.phase === 'playing';
    // mid-round only: between rounds the results have the same button, in the lobby the switch
    const canClose = isHost && st.open === true && !st.daily && (st.phase === 'playing' || st.phase === 'countdown');
    const shown = [parts.game, parts.roundNo, parts.timeLeft, phaseText ? parts.phase : null,
      seat === null ? parts.spectator : null, watchers.length ? parts.watching : null,
      choice === 'finishing' ? parts.finishing : null,
      canVote ? parts.vote : null, choice === 'alone' && !st.daily ? parts.botsFinish : null,
      canClose ? parts.closeTable : null].filter(Boolean);
    el.classList.toggle('closable', canClose); // a phone's quiet vote makes room for it (style.css)
    const current = [...el.children];
    if (shown.length !== current.length || shown.some((node, i) => node !== current[i])) {
      replaceChildren(el, ...shown);
    }
    // Quiet until it matters (this seat stuck, or a vote under way): then it says what
    // it does, with the count where others decide too. Alone with bots the vote ends the
    // round at once, so it says so ("End round now"), beside "Let the bots finish";
    // once they finish, "Take it back". (V and B work always.)
    const stuck = isStuck(st, seat);
    const loud = voted || voteMatters(st, seat);
    const how = choice === 'alone' ? 'end' : 'toggle';
    if (parts.vote.dataset.how !== how) parts.vote.dataset.how = how;
    const voteClass = `vote${voted ? ' voted' : ''}${loud ? '' : ' quiet'}`;
    if (parts.vote.className !== voteClass) parts.vote.className = voteClass;
    if (parts.vote.getAttribute('aria-pressed') !== String(voted)) parts.vote.setAttribute('aria-pressed', String(voted));
    if (choice === 'finishing') label(parts.label, t('table.takeBack'), t('table.takeBackShort'));
    else if (choice === 'alone') label(parts.label, t('table.endNow'), t('table.endNowShort'));
    else if (voted) label(parts.label, t('table.unvote'));
    else label(parts.label, stuck ? t('table.vote') : t('table.voteQuiet'));
    setText(parts.count, choice === 'vote' && (loud || votes > 0) ? ` ${votes}/${voters}` : '');
    label(parts.botsFinish, t('table.botsFinish'), t('table.botsFinishShort'));
    setText(/** @type {Element} */ (parts.closeTable.querySelector('.long')), t('tables.closeTable'));
    if (parts.closeTable.getAttribute('aria-label') !== t('tables.closeTable')) {
      parts.closeTable.setAttribute('aria-label', t('tables.closeTable'));
      parts.closeTable.title = t('tables.closeTable');
    }
    const finishClass = `vote${stuck ? '' : ' quiet'}`;
    if (parts.botsFinish.className !== finishClass) parts.botsFinish.className = finishClass;
    label(parts.finishing, t('table.botsFinishing'), t('table.botsFinishingShort'));
  }

  // The round's clock, every 200 ms.
  /** @param {number | null} msLeft */
  function tick(msLeft) {
    const node = el.querySelector('#time-left');
    if (!node) return;
    const box = /** @type {HTMLElement} */ (node.parentElement); // the .time-left span
    setHidden(box, msLeft === null);
    if (msLeft !== null) {
      const text = t('table.timeLeft', { time: formatClock(msLeft) });
      if (node.textContent !== text) node.textContent = text;
      box.classList.toggle('low', msLeft < 30000);
    }
  }

  return { update, tick };
}

// Every other seat, small: its top cards, stock, waste and tags. One panel per seat,
// kept for the round, and inside it one piece each for the head, the stock, the waste
// and every pile (dom.js keyedChildren), made again only when what it shows changed: a
// play changes the mover's seat view (a new object, demon-model.js) and its cards home,
// so at eight seats one play makes a pile and a count again, not seven panels. Fewer
// nodes made means fewer cards the browser paints again (docs/performance.md, "The
// table's page at 8 seats").
/** @param {HTMLElement} el */
export function createOpponents(el) {
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
    const seats = r.seats.map((view, seat) => ({ seat, view })).filter((s) => s.seat !== me);
    el.classList.toggle('many', seats.length > 3);
    el.classList.toggle('few', seats.length <= 2);
    el.classList.toggle('spectating', me === null);
    panels.patch(seats.map(({ seat }) => ({ key: seat, parts: [], make: () => {
      const panel = opponentPanel(seat);
      bySeat.set(seat, panel);
      return panel.el;
    } })));
    for (const seat of [...bySeat.keys()]) if (!seats.some((s) => s.seat === seat)) bySeat.delete(seat);
    const live = st.phase === 'playing'; // the round's own tags go with the round
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

// One other seat's panel: its frame stays, its pieces are patched.
/** @param {number} seat */
function opponentPanel(seat) {
  const el = h('section', { class: 'opp', dataset: { seat: String(seat), focus: `opp-${seat}` }, tabindex: '0',
    'aria-describedby': `opp-words-${seat}` });
  const cards = h('div', { class: 'opp-cards' });
  const pileBox = h('div', { class: 'opp-piles' });
  // The panel's description, in words: `hidden` (a description is read from a hidden
  // node too), so the sentence written again on every play of this seat is neither laid
  // out nor painted.
  const words = h('p', { id: `opp-words-${seat}`, hidden: true });
  const pieces = keyedChildren(el);
  const cardPieces = keyedChildren(cards);
  const piles = keyedChildren(pileBox);
  /** @type {unknown[] | null} [view, home, lang] the words were written for */
  let wordsOf = null;
  /** @type {Element | null} the head's "cards home" count: written in place on every play home */
  let homeCount = null;
  /** @type {unknown[] | null} what the panel was last drawn from: the same again draws nothing */
  let drawnFrom = null;

  /**
   * @param {RoomState} st
   * @param {{view: SeatView, p: Player | null, lang: string, spectating: boolean, muteButton: MuteButton | null,
   *   stuck: boolean, voted: boolean, home: number, colour: number}} seatDrawing
   */
  function draw(st, { view, p, lang, spectating, muteButton, stuck, voted, home, colour }) {
    const name = playerName(st, seat, t);
    // Most drawings at a table of eight carry another seat's play: this seat's panel is
    // then drawn from the very same objects, and patching it would only compare them all
    // again (a JavaScript profile: the panels' draw was a third of the page's script).
    const narrow = isNarrow();
    const from = [view, p, name, lang, spectating, muteButton, stuck, voted, home, colour, st.round_no, narrow];
    if (drawnFrom && sameParts(drawnFrom, from)) return;
    drawnFrom = from;
    const cls = `opp${p && !p.connected ? ' away' : ''}`;
    if (el.className !== cls) el.className = cls;
    const label = t('table.layoutOf', { name });
    if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
    const tint = seatColour(colour);
    if (el.style.getPropertyValue('--seat') !== tint) el.style.setProperty('--seat', tint);
    pieces.patch([
      // `p` is the player object itself: the reducer makes a new one whenever anything
      // of it changes (name, connection, total, vote), and shares it otherwise
      // (the count of cards home changes with most plays: it is written into the head,
      // which is not made again for it)
      { key: 'head', parts: [p, name, stuck, voted, colour, lang, muteButton, st.round_no],
        make: () => {
          const head = opponentHead(p, { name, stuck, voted, colour, muteButton, total: matchPoints(st, p) });
          homeCount = head.querySelector('.home-count');
          return head;
        } },
      { key: 'cards', parts: [], make: () => cards },
      { key: 'words', parts: [], make: () => words },
    ]);
    if (homeCount) setText(homeCount, `${home}/52`);
    const wasteTop = view.waste.length ? view.waste[view.waste.length - 1] : null;
    cardPieces.patch([
      { key: 'stock', parts: [view.stock ?? 0, colour], make: () => h('div', { class: 'opp-stock', dataset: { src: 'stock' } },
        view.stock ? backEl(colour, { mini: true }) : slotEl(),
        h('span', { class: 'stock-count', text: String(view.stock ?? 0) })) },
      { key: 'waste', parts: [wasteTop, lang], make: () => h('div', { class: 'opp-waste', dataset: { src: 'waste' } },
        wasteTop ? cardEl(wasteTop, { mini: true }) : slotEl()) },
      { key: 'piles', parts: [], make: () => pileBox },
    ]);
    piles.patch(view.tableau.map((pile, i) => {
      // a spectator has the room to see each pile's whole face-up run, fanned
      const fan = spectating && pile.up.length > 1;
      const top = pile.up.length ? pile.up[pile.up.length - 1] : null;
      return { key: i, parts: [pile.down, fan ? pile.up.join(' ') : top, colour, lang, narrow],
        make: () => opponentPile(pile, i, { fan, top, colour, narrow }) };
    }));
    if (!wordsOf || !sameParts(wordsOf, [view, home, lang])) {
      wordsOf = [view, home, lang];
      setText(words, layoutWords(view, home, { t, cardText }));
    }
  }

  return { el, draw };
}

// A player's match points so far, or null where they say nothing: in the first round
// everyone has 0 ("Σ0" and "total 0" next to the cards home read as a riddle).
/**
 * @param {RoomState} st
 * @param {Player | null} p
 * @returns {number | null}
 */
export function matchPoints(st, p) {
  const total = p ? p.total : null;
  return total === null || total === undefined || (st.round_no ?? 1) <= 1 ? null : total;
}

/**
 * @param {Player | null} p
 * @param {{name: string, stuck: boolean, voted: boolean, colour: number, muteButton: MuteButton | null,
 *   total: number | null}} head
 */
export function opponentHead(p, { name, stuck, voted, colour, muteButton, total }) {
  return h('header', { class: 'opp-head' },
    backEl(colour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name }) }),
    h('span', { class: 'opp-name', text: name }),
    botBadge(p) || h('span', { class: `conn conn-${p && p.absent ? 'absent' : p && p.connected ? 'online' : 'offline'}`,
      title: connText(p) }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'conn-text', text: connText(p) })),
    // (titled: a head too narrow for its tags cuts them short, style.css)
    stuck ? h('span', { class: 'tag stuck', title: t('table.stuck'), text: t('table.stuck') }) : null,
    voted ? h('span', { class: 'tag voted', title: t('table.voted'), text: t('table.voted') }) : null,
    h('span', { class: 'home-count', title: t('table.cardsHome') }),
    total !== null ? h('span', { class: 'total', title: t('table.total'), text: t('table.totalShort', { n: total }) }) : null,
    muteButton ? muteButton(p) : null); // emotes.js: hide this player's emotes
}

/**
 * @param {Pile} pile
 * @param {number} i
 * @param {{fan: boolean, top: string | null, colour: number, narrow: boolean}} look
 */
function opponentPile(pile, i, { fan, top, colour, narrow }) {
  const counted = narrow && !fan && top !== null && pile.down > 0;
  const shown = fan
    ? pile.up.map((c, j) => { const n = cardEl(c, { mini: true }); n.style.setProperty('--j', String(j)); return n; })
    : top ? countedTop(top, counted) : null;
  return h('div', { class: `opp-pile${fan ? ' fanned' : ''}${counted ? ' counted' : ''}`, dataset: { src: String(i) } },
    shown || (pile.down ? backEl(colour, { mini: true }) : slotEl()),
    pile.down ? h('span', { class: 'down-count', 'aria-label': t('table.faceDown', { n: pile.down }), text: `+${pile.down}` }) : null);
}

// Another seat's top card over a count of cards under it. On a phone the count lies inside
// the small card's lower half, where its compact face draws the suit (♥ and ♦ told
// apart only by it): there (`counted`: a phone's width, a count shown) the card shows its
// tab instead, rank and suit side by side in its upper half, from `--tab` (style.css
// `.counted`, cards.js `tabBody`). Only then: a custom property on every card of a laptop's
// panels made the table's style and script dearer per play (bench/page.py at 4x).
/**
 * @param {string} card
 * @param {boolean} counted
 */
export function countedTop(card, counted) {
  const node = cardEl(card, { mini: true });
  if (counted) node.style.setProperty('--tab', faceUrl(card, 'tab'));
  return node;
}

// On a phone, this many foundation piles and more wrap to a second row of whole cards,
// which leaves your own layout less than 40 px a card at a table of eight (docs/performance.md): the
// piles are then drawn as tabs, the top of a card only (cards.js, style.css).
const TABS_FROM = 8;
// A round that can reach this many piles (four a seat) draws its foundations with smaller
// cards from its start (style.css `.foundations.many`), so the row keeps to one or two
// lines. Chosen by the seats, not by the piles there now: switched at the twelfth pile, in
// the middle of the race, every foundation card was laid out and painted again at its new
// size (each face an SVG image drawn anew) and everything below the row moved, the
// table's longest task on a slow CPU (bench/page.py --long-tasks at 4x: 110-320 ms).
const MANY_FROM = 12;

// The shared foundations, and the place for a new one: one node per pile, made again
// only when its top card (or its owner's colour or name, or the tabs) changed.
/** @typedef {Pick<TableView, 'state' | 'round'>} FoundationsView */

/** @param {HTMLElement} el */
export function createFoundations(el) {
  const heading = h('h2', { class: 'sr-only' });
  const words = h('p', { id: 'fnd-words', hidden: true }); // read as a description, never drawn (as opp-words)
  const piles = keyedChildren(el);
  el.tabIndex = 0;
  el.setAttribute('aria-describedby', 'fnd-words');
  /** @type {FoundationsView | null} the view drawn last: drawn again when the window crosses the phone's width */
  let last = null;
  const redraw = () => { if (last) draw(last); };
  const unwatch = watchNarrow(redraw);

  /** @param {FoundationsView} v */
  function draw(v) {
    last = v;
    const { state: st, round: r } = v;
    const lang = t('lang.code');
    const next = r.foundations.length;
    const tabs = isNarrow() && next >= TABS_FROM;
    /** @type {KeyedItem[]} */
    const items = [{ key: 'heading', parts: [], make: () => heading }];
    r.foundations.forEach((f, i) => {
      if (!f) {
        items.push({ key: i, parts: [null, lang], make: () => h('div', { class: 'fnd', dataset: { fpile: String(i), target: `f:${i}` } }, slotEl()) });
        return;
      }
      const owner = playerName(st, f.seat, t);
      const colour = colourOfSeat(st, f.seat);
      const tag = ownerTag(st, f.seat);
      items.push({ key: i, parts: [f.top, f.seat, owner, colour, tag, lang, tabs],
        make: () => h('div', { class: 'fnd', role: 'button', dataset: { fpile: String(i), target: `f:${i}` },
          'aria-label': t('table.foundationPile', { n: i + 1, card: cardText(f.top), name: owner }) },
        cardEl(f.top, { owner: colour, ownerLabel: tag, mini: tabs ? 'tab' : false })) });
    });
    el.classList.toggle('many', 4 * r.seats.length >= MANY_FROM);
    el.classList.toggle('tabs', tabs);
    items.push({ key: 'new', parts: [next, lang], make: () => h('div', { class: 'fnd fnd-new', role: 'button',
      dataset: { target: `f:${next}` }, 'aria-label': t('table.newPile') }, slotEl(t('table.newPileShort'))) });
    items.push({ key: 'words', parts: [], make: () => words });
    piles.patch(items);
    setText(heading, t('table.foundations'));
    setText(words, foundationsWords(r.foundations, { t, cardText, nameOf: (seat) => playerName(st, seat, t) }));
  }

  function destroy() {
    unwatch();
    last = null;
  }

  return { draw, destroy };
}

// Your own layout, large. Drawn in pieces (the head, the stock, the waste, each pile),
// each made again only when what it shows changed: a card being dragged is not replaced
// under the pointer by other seats' plays, and another seat's play (which changes
// cards_home and often the legal list) costs this panel nothing unless it changed what
// this seat can do. `draw()` answers whether any piece was made. A drawn card fans in
// when the waste grew.
/**
 * @param {HTMLElement} el
 * @param {{onDraw: () => void, extra?: HTMLElement | null}} options
 */
export function createMinePanel(el, { onDraw, extra = null }) {
  /** @type {string | null} */
  let lastWaste = null;
  /** @type {number | null} */
  let lastWasteCount = null;
  /** @type {string | null} */
  let seatColourShown = null;
  const top = h('div', { class: 'mine-top' });
  const tableau = h('div', { class: 'tableau' });
  const pieces = keyedChildren(el);
  const topPieces = keyedChildren(top);
  const piles = keyedChildren(tableau);

  /**
   * @param {Pick<TableView, 'state' | 'round' | 'seat' | 'legal' | 'canAct'>} view
   * @returns {boolean} whether any piece was made
   */
  function draw({ state: st, round: r, seat, legal, canAct }) {
    if (seat === null) {
      setHidden(el, true);
      return pieces.patch([]) > 0;
    }
    setHidden(el, false);
    const lang = t('lang.code');
    const me = r.seats[seat] || null;
    const myColour = colourOfSeat(st, seat);
    const mePlayer = playerAtSeat(st, seat);
    const colour = seatColour(myColour);
    if (colour !== seatColourShown) el.style.setProperty('--seat', colour);
    seatColourShown = colour;
    if (!me) {
      return pieces.patch([{ key: 'waiting', parts: [lang], make: () => h('p', { class: 'note', text: t('table.waitingSeat') }) }]) > 0;
    }
    const hasDraw = legal.some((a) => a.type === 'draw');
    const hasRecycle = legal.some((a) => a.type === 'recycle');
    const stuck = Boolean(st.phase === 'playing' && r.stuck && r.stuck.includes(seat)); // not on the results
    const home = r.cards_home ? r.cards_home[seat] ?? 0 : 0;
    const total = matchPoints(st, mePlayer);
    const name = playerName(st, seat, t);

    const waste = me.waste;
    const wasteKey = `${waste.join(' ')}|${me.waste_count}|${me.stock}`;
    const drawn = lastWaste !== null && wasteKey !== lastWaste && me.waste_count > 0
      && (lastWasteCount === null || me.waste_count > lastWasteCount);
    lastWaste = wasteKey;
    lastWasteCount = me.waste_count;

    let made = pieces.patch([
      { key: 'head', parts: [name, myColour, stuck, home, total, lang],
        make: () => h('header', { class: 'mine-head' },
          backEl(myColour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name }) }),
          h('span', { class: 'opp-name', text: name }),
          h('span', { class: 'tag you', text: t('lobby.you') }),
          stuck ? h('span', { class: 'tag stuck', text: t('table.youStuck') }) : null,
          h('span', { class: 'home-count', title: t('table.cardsHome'), text: t('table.home', { n: home }) }),
          total !== null ? h('span', { class: 'total', text: t('table.totalIs', { n: total }) }) : null,
          extra) }, // emotes.js: say hello (one node, moved into each new head)
      { key: 'top', parts: [], make: () => top },
      { key: 'tableau', parts: [], make: () => tableau },
    ]);
    made += topPieces.patch([
      { key: 'stock', parts: [me.stock, canAct, hasDraw, hasRecycle, myColour, lang],
        make: () => h('button', { type: 'button', class: 'stock', id: 'stock', dataset: { focus: 'stock', src: 'stock' },
          disabled: !canAct || (!hasDraw && !hasRecycle), 'aria-keyshortcuts': 'D Space',
          'aria-label': hasRecycle ? t('table.recycle', { n: me.stock }) : t('table.drawLabel', { n: me.stock }),
          onclick: onDraw },
        me.stock ? backEl(myColour, { label: t('table.stockCount', { n: me.stock }) }) : slotEl('↺', 'recycle'),
        h('span', { class: 'stock-count', text: String(me.stock) })) },
      { key: 'waste', parts: [wasteKey, myColour, lang],
        make: () => h('div', { class: `waste fan-${waste.length}`, dataset: { focus: 'waste', src: 'waste' }, tabindex: '0',
          role: 'button', 'aria-keyshortcuts': 'W',
          'aria-label': waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: me.waste_count ?? waste.length }) : t('table.wasteEmpty') },
        waste.length ? waste.map((c, i) => {
          const node = cardEl(c, { extraClass: drawn ? 'dealt' : '' });
          node.style.setProperty('--i', String(i));
          if (i === waste.length - 1) node.dataset.pick = 'w';
          return node;
        }) : slotEl()) },
    ]);
    made += piles.patch(me.tableau.map((pile, i) => ({
      key: i, parts: [`${pile.down}|${pile.up.join(' ')}`, canAct, myColour, lang],
      make: () => pileEl(pile, i, { canAct, myColour }) })));
    return made > 0;
  }

  return { draw };
}

/**
 * @param {Pile} pile
 * @param {number} i
 * @param {{canAct: boolean, myColour: number}} look
 */
function pileEl(pile, i, { canAct, myColour }) {
  const node = h('div', { class: 'pile', role: 'button', tabindex: '0',
    dataset: { target: `t:${i}`, focus: `pile-${i}`, src: String(i) },
    'aria-keyshortcuts': String(i + 1),
    'aria-label': t('table.pileLabel', { n: i + 1, down: pile.down,
      up: pile.up.map(cardText).join(' ') || t('table.none') }) });
  node.style.setProperty('--d', String(pile.down));
  node.style.setProperty('--u', String(Math.max(0, pile.up.length - 1)));
  for (let k = 0; k < pile.down; k++) {
    const b = backEl(myColour, { extraClass: 'down' });
    b.style.setProperty('--k', String(k));
    node.append(b);
  }
  pile.up.forEach((c, j) => {
    const card = cardEl(c, { extraClass: 'up' });
    card.style.setProperty('--d', String(pile.down));
    card.style.setProperty('--j', String(j));
    if (canAct) card.dataset.pick = `t:${i}:${j}`;
    node.append(card);
  });
  if (!pile.down && !pile.up.length) node.append(slotEl('', 'empty-pile')); // K: a11y.css
  node.append(h('span', { class: 'pile-key', 'aria-hidden': 'true', text: String(i + 1) }));
  return node;
}

// The round's (or the match's) result: the scores, and what comes next.
/**
 * @param {HTMLElement} el
 * @param {{state: RoomState, isHost: boolean, seat?: number | null}} view
 * @param {{onNext: () => void, onRematch: () => void, onLeave: () => void, onSetOpen: (open: boolean) => void}} handlers
 */
export function drawResults(el, { state: st, isHost: host, seat = null }, { onNext, onRematch, onLeave, onSetOpen }) {
  const res = st.result;
  if (!res || (st.phase !== 'round_over' && st.phase !== 'match_over')) {
    replaceChildren(el);
    return;
  }
  const matchOver = st.phase === 'match_over' || res.match_over;
  const players = seatedPlayers(st);
  /** @param {Player} p */
  const totalOf = (p) => res.totals[p.id] ?? p.total ?? 0;
  const order = [...players].sort((a, b) => totalOf(b) - totalOf(a));
  const { winners, tie } = matchOutcome(res);
  const winnerIds = new Set(winners);
  /** @param {Player} p */
  const isWinner = (p) => winnerIds.has(p.id);
  const winner = playerById(st, res.winner);
  // who went out, by the game's call: "Demon!" or "Nerts!" (racing/game-options.js)
  const call = callKey(res.reason);
  const demon = call !== null;
  const reason = reasonText(res.reason, winner ? shownName(winner, t) : null, t, Boolean(st.round?.bots_finish));
  const table = h('table', { class: 'score-table' },
    h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('result.player') }),
      h('th', { scope: 'col', text: t('result.thisRound') }), h('th', { scope: 'col', text: t('result.total') }))),
    h('tbody', null, order.map((p) => {
      const won = matchOver && isWinner(p);
      const out = demon && res.winner === p.id; // went out this round
      return h('tr', { class: [won ? 'winner' : '', out ? 'demon' : ''].join(' ').trim() },
        h('th', { scope: 'row' }, backEl(colourOfSeat(st, p.seat), { mini: true, extraClass: 'swatch' }), ' ',
          h('span', { text: shownName(p, t) }), botBadge(p) ? ' ' : null, botBadge(p),
          out && call ? h('span', { class: 'tag demon-tag', text: t(call) }) : null,
          won ? h('span', { class: tie ? 'tag win tie' : 'tag win', text: tie ? t('result.tied') : t('result.winner') }) : null),
        h('td', { text: formatScore(res.scores[p.id] ?? 0) }),
        h('td', { text: formatScore(totalOf(p)) }));
    })));
  const winnerNames = players.filter(isWinner).map((p) => shownName(p, t));
  const winnerText = tie ? t('result.matchTie', { names: winnerNames.join(', ') })
    : t('result.matchWinner', { names: winnerNames.join(', ') });
  replaceChildren(el, h('section', { class: `panel results${demon ? ' demon' : ''}`, id: 'results', 'aria-labelledby': 'results-title' },
    h('h2', { id: 'results-title', text: matchOver ? t('result.matchOver') : t('result.roundOver', { n: st.round_no ?? 1 }) }),
    h('p', { class: 'reason', text: reason }),
    matchOver && winnerNames.length ? h('p', { class: `match-winner${tie ? ' tie' : ''}`, text: winnerText }) : null,
    table,
    // the round's players may watch it again (static/replay/replay.js), in a tab of its own
    seat !== null && st.code ? h('p', { class: 'replay-link' }, h('a', { href: `/replay/${st.code}/last`, id: 'watch-replay',
      target: '_blank', rel: 'noopener' }, t('replay.watch'))) : null,
    host && !matchOver ? h('button', { type: 'button', class: 'primary big', id: 'next-round',
      onclick: onNext }, t('result.nextRound')) : null,
    host && matchOver && !st.daily ? h('button', { type: 'button', class: 'primary big', id: 'rematch',
      onclick: onRematch }, t('result.rematch')) : null,
    matchOver && st.daily && st.code ? dailyNext(st.code) : null, // no rematch of the day's deal
    !host ? h('p', { class: 'note', text: matchOver ? t('result.waitRematch') : t('result.waitNext') }) : null,
    // an open table's host may take it off the open list between rounds too, not only in
    // the lobby: strangers would join at the next deal (docs/protocol.md, "Open tables")
    host && st.open === true && !st.daily ? h('button', { type: 'button', class: 'secondary', id: 'results-close-table',
      onclick: () => onSetOpen(false) }, t('tables.closeTable')) : null,
    h('button', { type: 'button', class: 'secondary', onclick: () => {
      if (window.confirm(t('lobby.leaveConfirm'))) onLeave();
    } }, t('lobby.leave'))));
}
