// The Demon table: your layout large at the bottom, every other seat compact above,
// the shared foundations in the middle. Everything drawn comes from the server's
// state; the moves offered come from the server's legal list.

import { h, toast, cssEscape, replaceChildren, setHidden } from '../common/dom.js';
import { t, getLang } from '../common/i18n.js';
import { lostText, wonText, createWinGate } from '../common/margin.js';
import { playerName, playsOf } from './demon-model.js';
import { endChoice } from './round-status.js';
import { moveWords } from './announce.js';
import { cardName, warmFaces } from '../cards/cards.js';
import { makeGhost, flyFrom, bindKeys } from '../cards/input.js';
import { createSelection } from '../cards/selection.js';
import { createPendingMoves } from './pending-moves.js';
import { demonTargets, firstFoundationPlay, stockAction, actionFor, nextRun, resizeRun } from '../cards/targets.js';
import { play } from '../common/sound.js';
import { createStatusBar, createMinePanel, createOpponents, createFoundations, drawResults } from './demon-panels.js';
import { createDemonCoach } from '../guide/guide.js';

/** @typedef {import('./protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('./protocol-types.js').DemonSelection} DemonSelection */
/** @typedef {import('./protocol-types.js').DemonEvent} DemonEvent */
/** @typedef {import('./protocol-types.js').MoveEvent} MoveEvent */
/** @typedef {import('./protocol-types.js').Round} Round */
/** @typedef {import('./protocol-types.js').AckMessage} AckMessage */
/** @typedef {import('./protocol-types.js').RejectedMessage} RejectedMessage */
/** @typedef {import('./protocol-types.js').RaceWonMessage} RaceWonMessage */
/** @typedef {import('./protocol-types.js').ErrorMessage} ErrorMessage */
/** @typedef {import('../cards/input.js').Ghost} Ghost */
/** @typedef {import('../cards/input.js').DropHow} DropHow */
/** @typedef {import('../cards/input.js').Box} Box */
/** @typedef {import('./demon-panels.js').TableView} TableView */

/**
 * What beforeEvent learnt of a move before the model took it in: the foundation plays
 * to fly, and where from (`from` for your own, read at once; `seat` and `src` for another
 * seat's, read once a frame).
 * @typedef {{plays: {card: string, pile: number}[], mine: boolean, from?: Box | null, seat?: number,
 *   src?: import('./protocol-types.js').DemonSrc}} BeforeMove
 */

/**
 * @param {HTMLElement} container
 * @param {import('./room.js').RoomContext} ctx
 */
export function mount(container, ctx) {
  const model = ctx.model;

  const status = h('div', { class: 'table-status' });
  const opponents = h('section', { class: 'opponents', 'aria-label': t('table.opponents') });
  const foundations = h('section', { class: 'foundations', 'aria-label': t('table.foundations') });
  const mine = h('section', { class: 'mine' });
  const results = h('div', { class: 'results-slot' });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  // A spectator's log of the plays, in words (the players have their own cards to watch).
  const logList = h('ul', { class: 'play-log-list' }); // newest first
  const playLog = h('section', { class: 'play-log panel', 'aria-labelledby': 'play-log-title', hidden: true },
    h('h2', { id: 'play-log-title', text: t('table.playLog') }), logList);
  const el = h('div', { class: 'table' }, status, results, opponents, foundations, mine, playLog, live);
  container.append(el);

  const selection = createSelection(el, { pickOf, liftOf, targets: targetsFor, commit, quick });
  const pending = createPendingMoves({ liftOf });
  const coach = createDemonCoach(el, { model, send: ctx.send }); // practice-round guide (guide.js)
  // every face ready before the race shows it (cards.js); the tabs too where the
  // foundations may be drawn as tabs (a phone: demon-panels.js)
  const stopWarming = warmFaces({ tabs: Boolean(window.matchMedia && window.matchMedia('(max-width: 600px)').matches) });
  const select = selection.select;
  const unbindKeys = bindKeys({
    d: draw, space: draw,
    w: () => pickKey('waste'),
    f: () => { const s = selection.get(); if (s) { select(null); quick(s, {}); } },
    v: () => vote(),
    b: () => vote('bots'),
    Escape: () => select(null),
    Enter: () => { const a = document.activeElement; if (a && el.contains(a)) selection.activate(a); else return false; return true; },
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => growSelection(1),
    ArrowDown: () => growSelection(-1),
    ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [String(n), () => pickKey(n - 1)])),
  });

  // ---- what the state says ---------------------------------------------------------
  const state = () => model.state;
  const round = () => (model.state ? model.state.round : null);
  const playing = () => Boolean(model.state && model.state.phase === 'playing' && model.seat !== null);

  /** @param {number | null} seat */
  function seatView(seat) {
    const r = round();
    if (!r || !r.seats || seat === null) return null;
    return r.seats[seat] || null;
  }

  /** @returns {DemonAction[]} */
  function legal() { return playing() ? model.legal || [] : []; }

  // ---- selection and targets (from the legal list only) ----------------------------
  /**
   * @param {HTMLElement} node
   * @returns {DemonSelection | null}
   */
  function pickOf(node) {
    if (!playing()) return null;
    const pick = node.dataset.pick;
    const me = seatView(model.seat);
    if (!me) return null;
    if (pick === 'w') return me.waste && me.waste.length ? { src: 'waste', count: 1 } : null;
    const m = /^t:(\d):(\d+)$/.exec(pick || '');
    if (!m) return null;
    const pile = me.tableau[Number(m[1])];
    const j = Number(m[2]);
    if (!pile || j >= pile.up.length) return null;
    return { src: Number(m[1]), count: pile.up.length - j };
  }

  /**
   * @param {DemonSelection | null} s
   * @returns {HTMLElement[]}
   */
  function liftOf(s) {
    if (!s) return [];
    if (s.src === 'waste') return [.../** @type {NodeListOf<HTMLElement>} */ (mine.querySelectorAll('[data-pick="w"]'))];
    const me = seatView(model.seat);
    const pile = me && me.tableau[s.src];
    if (!pile) return [];
    const out = [];
    for (let j = pile.up.length - s.count; j < pile.up.length; j++) {
      const node = /** @type {HTMLElement | null} */ (mine.querySelector(`[data-pick="t:${s.src}:${j}"]`));
      if (node) out.push(node);
    }
    return out;
  }

  /** @param {DemonSelection | null} s */
  function targetsFor(s) {
    return demonTargets(legal(), s);
  }

  // ---- sending ---------------------------------------------------------------------
  /**
   * @param {DemonAction} action
   * @param {DemonSelection | null} s
   * @param {Ghost | null | undefined} ghost
   * @param {Element | null} targetNode
   */
  function send(action, s, ghost, targetNode) {
    const id = ctx.action(action);
    if (!id) {
      toast(t('table.offline'), 'warn');
      if (ghost) ghost.flyBack();
      return false;
    }
    let g = ghost;
    if (!g && s) {
      const lift = liftOf(s);
      if (lift.length) g = makeGhost(lift);
    }
    if (g && targetNode) g.flyTo(targetNode.getBoundingClientRect());
    pending.add(id, { ghost: g || null, sel: s, action });
    return true;
  }

  /** @param {string} key */
  function targetNodeFor(key) {
    return el.querySelector(`[data-target="${cssEscape(key)}"]`);
  }

  /**
   * @param {DemonSelection} s
   * @param {string} key
   * @param {DropHow} [how]
   */
  function commit(s, key, how = {}) {
    const action = actionFor(targetsFor(s).get(key));
    if (!action) return false;
    return send(action, s, how.ghost, targetNodeFor(key));
  }

  /**
   * @param {DemonSelection} s
   * @param {DropHow} [how]
   */
  function quick(s, how = {}) {
    const first = firstFoundationPlay(legal(), s);
    if (!first) {
      if (how.ghost) how.ghost.flyBack();
      return false;
    }
    // fly towards the first pile the server listed for this card (only a guess for
    // the animation: the action names no pile, and the server picks it)
    return send({ type: 'foundation', src: s.src, pile: null }, s, how.ghost, targetNodeFor(`f:${first.pile}`));
  }

  function draw() {
    if (!playing()) return false;
    const a = stockAction(legal(), 'draw', 'recycle');
    if (!a) return true;
    select(null);
    if (send({ type: a.type }, null, null, null)) play('draw');
    return true;
  }

  // how: 'toggle' (vote, or take it back), 'end' (alone with bots: the vote ends the
  // round now), 'bots' (alone with bots: let them play it out, fast).
  /** @param {string} [how] */
  function vote(how = 'toggle') {
    const st = state();
    const r = round();
    if (!st || !r || model.seat === null || st.phase !== 'playing') return false;
    const choice = endChoice(st, model.seat);
    if (how === 'bots') {
      if (choice !== 'alone' || st.daily) return false; // the daily race's round is the person's own (docs/daily.md)
      ctx.send({ type: 'vote', end: true, bots_finish: true });
      return true;
    }
    const voted = (r.votes || []).includes(model.seat);
    ctx.send({ type: 'vote', end: !voted });
    return true;
  }

  // keyboard: a number picks that pile (again: a longer run) or drops the held cards
  // there; W picks the waste.
  /** @param {'waste' | number} src */
  function pickKey(src) {
    if (!playing()) return false;
    if (src !== 'waste' && selection.dropOn(`t:${src}`)) return true;
    const me = seatView(model.seat);
    if (!me) return true;
    const sel = selection.get();
    if (src === 'waste') {
      select(sel && sel.src === 'waste' ? null : (me.waste.length ? { src: 'waste', count: 1 } : null));
      return true;
    }
    const run = nextRun(sel, src, me.tableau[src].up.length);
    select(run);
    if (!run) return true;
    const node = /** @type {HTMLElement | null} */ (mine.querySelector(`[data-focus="pile-${src}"]`));
    if (node) node.focus({ preventScroll: true });
    return true;
  }

  /** @param {number} delta */
  function growSelection(delta) {
    const sel = selection.get();
    if (!sel || sel.src === 'waste') return false;
    const me = seatView(model.seat);
    if (!me) return false;
    select(resizeRun(sel, delta, me.tableau[sel.src].up.length));
    return true;
  }

  /** @param {number} delta */
  function moveFocus(delta) {
    const items = [.../** @type {NodeListOf<HTMLElement>} */ (mine.querySelectorAll('[data-focus]'))];
    if (!items.length) return false;
    const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const next = items[(i + delta + items.length) % items.length];
    next.focus();
    return true;
  }

  // ---- server answers --------------------------------------------------------------
  /** @param {AckMessage} msg */
  function onAck(msg) {
    const action = pending.ack(msg.id);
    if (action && action.type !== 'draw' && action.type !== 'recycle') play('place');
  }

  // A refused play slides back and is announced once (below).
  const notes = createRaceNotes({ mine, live, nameOf: (seat) => playerName(state(), seat, t) });
  /** @param {RejectedMessage} msg */
  function onRejected(msg) {
    pending.reject(msg.id);
    notes.rejected(msg);
  }

  function onSnapshot() {
    pending.clear();
    selection.clear();
  }

  // Before a move is applied, remember where the played card was, so it can fly from
  // there to its foundation once drawn.
  /**
   * @param {DemonEvent} event
   * @returns {BeforeMove | null}
   */
  function beforeEvent(event) {
    if (event.kind !== 'move') return null;
    const plays = playsOf(event);
    const src = event.action ? event.action.src : undefined;
    if (event.seat === model.seat) {
      // my own move: the ghost (if any) already shows it; let it go
      if (event.action && pending.landed(event.action)) return { plays: [], mine: true };
      const node = src === undefined ? null
        : mine.querySelector(src === 'waste' ? '[data-pick="w"]' : `[data-src="${src}"] .card:last-child`);
      return { plays, from: node ? node.getBoundingClientRect() : null, mine: true };
    }
    // Another seat's play: where its card was is read later, once a frame (flights): its
    // panel is made again in the same place, and a read here would make the browser lay
    // out the page for every play (at eight seats, many times a second).
    return { plays, seat: event.seat, src, mine: false };
  }

  /**
   * @param {DemonEvent} event
   * @param {BeforeMove | null} before
   */
  function afterEvent(event, before) {
    if (event.kind === 'round_started') replaceChildren(logList);
    if (event.kind === 'move' && model.seat === null) logPlay(event);
    if (event.kind !== 'move' || !before) return;
    if (!before.mine) play('other');
    if (before.mine && !before.from) return;
    for (const p of before.plays) {
      flights.push({ pile: p.pile, from: before.from, seat: before.seat, src: before.src, mine: before.mine,
        ms: before.mine ? 220 : 420 });
    }
  }

  // Cards to a foundation fly there, another seat's at most once a second (below).
  const flights = createFlights({ foundations, opponents });

  /** @param {MoveEvent} event */
  function logPlay(event) {
    const words = moveWords(event, { t, cardName, name: playerName(state(), event.seat, t) });
    if (!words) return;
    logList.prepend(h('li', { text: words }));
    while (logList.lastElementChild && logList.childElementCount > 12) logList.lastElementChild.remove();
  }

  // ---- drawing ---------------------------------------------------------------------
  const statusBar = createStatusBar(status, { onVote: vote,
    onCloseTable: () => ctx.send({ type: 'set_open', open: false }) });
  const minePanel = createMinePanel(mine, { onDraw: draw, extra: ctx.emotes ? ctx.emotes.dock() : null });
  const opponentPanels = createOpponents(opponents);
  const foundationPiles = createFoundations(foundations);
  const resultActions = {
    onNext: () => ctx.send({ type: 'next_round' }),
    onRematch: () => ctx.send({ type: 'rematch' }),
    onLeave: () => ctx.leave(),
    onSetOpen: (/** @type {boolean} */ open) => ctx.send({ type: 'set_open', open }),
  };

  // Only while the room shows the table, which it does only with a round (room-model.js
  // viewKind): update() checks, and so does every caller before it.
  /** @returns {TableView} */
  function view() {
    return { state: /** @type {import('./protocol-types.js').RoomState} */ (state()), round: /** @type {Round} */ (round()), seat: model.seat, you: model.you, legal: legal(), canAct: playing(),
      timeEnd: model.timeEnd, isHost: ctx.isHost(), muteButton: ctx.emotes ? ctx.emotes.muteButton : null };
  }

  /** @param {TableView} v */
  function drawMine(v) {
    if (minePanel.draw(v)) fit.mineDrawn();
    hideMoving();
  }

  // Your layout's cards are sized to the room left below what stands above it
  // (below).
  const fit = createTableFit({ mine, results, above: [status, results, opponents, foundations] });

  // Cards being dragged, or on their way to the server, stay hidden in the layout.
  function hideMoving() {
    pending.hide();
    const held = selection.dragging();
    if (held) liftOf(held).forEach((n) => n.classList.add('lifted'));
  }

  function update() {
    if (!state() || !round()) return;
    const v = view();
    el.classList.toggle('spectator', model.seat === null);
    setHidden(playLog, model.seat !== null);
    // (a data attribute written again, even unchanged, makes the browser check its styles)
    if (!logList.firstChild && logList.dataset.empty !== t('table.playLogEmpty')) logList.dataset.empty = t('table.playLogEmpty');
    if (el.dataset.players !== String(v.round.seats.length)) el.dataset.players = String(v.round.seats.length);
    fit.drawn(v.round.foundations.length);
    statusBar.update(v);
    opponentPanels.draw(v);
    foundationPiles.draw(v);
    drawMine(v);
    drawResults(results, v, resultActions);
    fit.fitFirst(); // the first drawing is fitted before it shows
    selection.repaint();
    statusBar.tick(model.timeEnd === null ? null : Math.max(0, model.timeEnd - performance.now()));
    coach.update();
  }

  return {
    update,
    /** @param {number | null} msLeft */
    tick: (msLeft) => statusBar.tick(msLeft),
    onAck,
    onRejected,
    onRaceWon: notes.won,
    /** @param {ErrorMessage} msg */
    onError: (msg) => { pending.rejectAll(); coach.onError(msg); },
    /** @param {unknown} msg the coach's advice (guide.js reads it): the socket's `coach` message */
    onCoach: (msg) => coach.onCoach(/** @type {import('../guide/guide-model.js').Advice} */ (msg)),
    onSnapshot,
    onLegal: () => {
      if (!playing()) return;
      const v = view();
      drawMine(v);
      statusBar.update(v);
      selection.repaint();
      coach.update();
    },
    beforeEvent,
    afterEvent,
    /** @returns {import('./room.js').KeyHelp} */
    keys: () => [[t('keys.demon'), [
      [`D / ${t('keys.space')}`, t('keys.draw')],
      ['1 – 7', t('keys.pickPile')],
      ['W', t('keys.pickWaste')],
      ['↑ / ↓', t('keys.runLength')],
      ['F', t('keys.toFoundation')],
      ['Enter', t('keys.enter')],
      ['← / →', t('keys.focusMove')],
      ['V', t('keys.vote')],
      ...(state()?.daily ? [] : [/** @type {[string, string]} */ (['B', t('keys.botsFinish')])]),
      ['Esc', t('keys.drop')],
    ]]],
    destroy() {
      stopWarming();
      flights.destroy();
      foundationPiles.destroy();
      opponentPanels.destroy();
      fit.destroy();
      coach.destroy();
      selection.destroy();
      unbindKeys();
      pending.destroy();
      el.remove();
    },
  };
}

// ==== what the Nerts table (static/nerts/nerts-table.js) shares with this one ==========

// ---- flights -------------------------------------------------------------------------
// The plays of a frame fly together (every position read, then every animation started);
// another seat's card flies at most once in OTHERS_EVERY_MS, and none while the page is
// behind (a long task in the last BEHIND_MS): why, docs/architecture.md ("Fewer frames").

/**
 * One card to fly: to foundation `pile`, from `from` (your own, read before the move was
 * applied) or from another seat's panel (`seat`, and the `src` its panel marks with
 * data-src), read here once a frame.
 * @typedef {{pile: number, from: Box | null | undefined, seat: number | undefined, src: string | number | undefined,
 *   mine: boolean, ms: number}} Flight
 */

const OTHERS_EVERY_MS = 1000;
const BEHIND_MS = 3000;

/**
 * @param {{foundations: HTMLElement, opponents: HTMLElement}} where the foundation piles
 *   (`[data-fpile]`) and the other seats' panels (`[data-seat]`, their sources `[data-src]`)
 */
export function createFlights({ foundations, opponents }) {
  /** @type {Flight[]} */
  const flights = [];
  let queued = false;
  let othersFlyingUntil = 0;
  let behindUntil = 0;
  const longTasks = typeof PerformanceObserver === 'function'
    && (PerformanceObserver.supportedEntryTypes || []).includes('longtask')
    ? new PerformanceObserver((list) => {
      for (const task of list.getEntries()) behindUntil = Math.max(behindUntil, task.startTime + task.duration + BEHIND_MS);
    }) : null;
  if (longTasks) longTasks.observe({ type: 'longtask' });

  function fly() {
    queued = false;
    const now = performance.now();
    const wanted = flights.splice(0).filter((f) => {
      if (f.mine) return true;
      if (now < othersFlyingUntil || now < behindUntil) return false;
      othersFlyingUntil = now + Math.max(f.ms, OTHERS_EVERY_MS);
      return true;
    });
    const found = wanted.map((f) => {
      const node = /** @type {HTMLElement | null} */ (foundations.querySelector(`[data-fpile="${f.pile}"] .card`));
      let from = f.from;
      if (!from && f.src !== undefined) {
        const panel = opponents.querySelector(`[data-seat="${f.seat}"]`);
        const srcNode = panel ? panel.querySelector(`[data-src="${f.src}"]`) : null;
        from = srcNode ? srcNode.getBoundingClientRect() : null;
      }
      return { node, from, to: node && from ? node.getBoundingClientRect() : null, ms: f.ms };
    });
    for (const f of found) if (f.to) flyFrom(f.node, f.from, f.ms, f.to);
  }

  return {
    /** @param {Flight} flight flown in a microtask, with the others of the same drawing */
    push(flight) {
      flights.push(flight);
      if (!queued) {
        queued = true;
        queueMicrotask(fly);
      }
    },
    destroy() { if (longTasks) longTasks.disconnect(); },
  };
}

// ---- fitting your cards ---------------------------------------------------------------
// Your cards are sized to the room below what stands above them (--mine-room, measured
// on a ResizeObserver and a window resize, never per play), so the tallest pile a layout
// can hold ends in the window. In the middle of the round they do not grow when the
// foundations took less room, and they do not shrink while your layout still ends in the
// window: the room lost (the foundations wrapping to a new row, other seats' tags) is
// given up only once one of your piles reaches the window's bottom edge. A new window
// size fits them anew, once the page has drawn itself for it
// (docs/architecture.md, "Nothing changes size in the middle of the race").

// The margin kept below your layout, in px.
const ROOM_MARGIN = 14;

/**
 * @param {{mine: HTMLElement, results: HTMLElement, above: HTMLElement[]}} parts your layout,
 *   the results (which push it down: the race's size is kept), and what stands above it
 */
export function createTableFit({ mine, results, above }) {
  /** @type {number | null} */
  let mineRoom = null;
  /** @type {number | null} a smaller room measured mid-round, taken once your layout needs it */
  let owed = null;
  let pilesNow = 0; // the foundation piles drawn last
  let pilesTaken = 0; // and when the room was last taken
  const observer = new ResizeObserver(() => fit());
  for (const node of above) observer.observe(node);

  /** @param {number} room */
  function take(room) {
    owed = null;
    pilesTaken = pilesNow;
    if (room === mineRoom) return;
    mineRoom = room;
    mine.style.setProperty('--mine-room', `${room}px`);
  }

  // Whether your layout as drawn now ends above the window's bottom margin.
  const endsInView = () => mine.getBoundingClientRect().bottom <= window.innerHeight - ROOM_MARGIN + 0.5;

  function fit({ resized = false } = {}) {
    if (mine.hidden || results.firstChild) return;
    const top = mine.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(0, Math.floor(window.innerHeight - top - ROOM_MARGIN));
    if (mineRoom === null || resized) return take(room);
    if (room > mineRoom) {
      owed = null;
      // the foundations took less room as they grew (a phone's tabs): no growth; a room
      // grown by what the window's new size drew anew (the tabs again) is taken
      if (pilesNow > pilesTaken) return;
      return take(room);
    }
    if (room === mineRoom) { owed = null; return; }
    if (endsInView()) owed = room; // shrink later, if ever
    else take(room);
  }
  // A resize takes the room at once, and again once the page has drawn itself for its
  // new width: crossing a phone's width, other seats' panels are drawn anew after the
  // `resize` event (demon-panels.js watchNarrow), with the plays held for that frame
  // (perhaps a new foundation pile, which the rules above would read as the foundations
  // taking less room). The second fit is in the next frame, that drawing laid out.
  let refit = 0;
  const onResize = () => {
    fit({ resized: true });
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(() => { refit = requestAnimationFrame(() => fit({ resized: true })); });
  };
  window.addEventListener('resize', onResize);

  return {
    /**
     * A drawing with this many foundation piles; the first drawing is fitted before it shows.
     * @param {number} piles
     */
    drawn(piles) { pilesNow = piles; },
    /** Called after the drawing: fits the first one. */
    fitFirst() { if (mineRoom === null) fit(); },
    /** Called when your layout was drawn anew: takes the room owed once it no longer ends
     * in the window (one read of its box, and only while a room is owed). */
    mineDrawn() {
      if (owed !== null && !mine.hidden && !results.firstChild && !endsInView()) take(owed);
    },
    destroy() {
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(refit);
      observer.disconnect();
    },
  };
}

// ---- notes over your layout -----------------------------------------------------------
// A refused play, a race lost or won: one note over your layout and the same words once
// in the live region; nothing for a play that came after the round ended (the call and
// the results say who won).

/**
 * @param {{mine: HTMLElement, live: HTMLElement, nameOf: (seat: number) => string}} parts where the
 *   note shows, the live region that says it, and a seat's name
 */
export function createRaceNotes({ mine, live, nameOf }) {
  /** @type {HTMLElement | null} */
  let note = null;

  /**
   * @param {string} text
   * @param {string} [kind] '' (refused, lost) or 'won'; the Nerts table adds 'info'
   * @param {number} [ms] how long it stays
   */
  function show(text, kind = '', ms = 3500) {
    live.textContent = text;
    if (note) note.remove(); // a second note replaces the first
    const mark = h('p', { class: kind ? `race-note ${kind}` : 'race-note', 'aria-hidden': 'true', text });
    note = mark;
    mine.prepend(mark);
    setTimeout(() => { mark.remove(); if (note === mark) note = null; }, ms);
  }

  /** @param {RejectedMessage} msg */
  function rejected(msg) {
    if (msg.code === 'round_over') return;
    play('bad');
    // a lost race names the seat that got there first, and its name when it has one
    const winner = msg.by_name ?? (msg.by_seat !== undefined && msg.by_seat !== null ? nameOf(msg.by_seat) : null);
    show(winner !== null ? lostText(winner, msg.margin_ms, t, getLang())
      : t('table.rejectedWhy', { reason: msg.reason || msg.code || '?' }));
  }

  // The winner of a race hears by how much it won (docs/protocol.md, "The margin of a
  // race"): a close race only, and not again for a while (common/margin.js).
  const wins = createWinGate();
  /** @param {RaceWonMessage} msg */
  function won(msg) {
    if (!wins.admit(msg.margin_ms, performance.now())) return;
    show(wonText(msg.over_name, msg.margin_ms, t, getLang()), 'won', 2500);
  }

  return { show, rejected, won };
}
