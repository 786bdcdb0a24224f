// The Nerts table: your layout large at the bottom (the Nerts pile first, with its
// count and stake), every other seat compact beside or above, the shared foundations in
// the middle. The same view as Demon's table (demon/table.js) to the room page
// (demon/room.js loads this module with import() for a room whose game is "nerts"):
// everything drawn comes from the server's state, the moves offered from its legal list.
// What both tables share lives in cards/ (selection, input, flights, fit, race notes)
// and demon/ (the status bar, the foundations, the results, pending moves).

import { h, toast, cssEscape, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { playerName, playsOf } from '../demon/demon-model.js';
import { endChoice } from '../demon/round-status.js';
import { warmFaces } from '../cards/cards.js';
import { makeGhost, bindKeys } from '../cards/input.js';
import { createSelection } from '../cards/selection.js';
import { createFlights, createTableFit, createRaceNotes } from '../demon/table.js';
import { stockAction, actionFor, nextRun, resizeRun } from '../cards/targets.js';
import { createPendingMoves } from '../demon/pending-moves.js';
import { play } from '../common/sound.js';
import { createStatusBar, createFoundations, drawResults } from '../demon/demon-panels.js';
import { createNertsMine, createNertsOpponents, nertsSeats } from './nerts-panels.js';
import { selectionOf, pickKeys, nertsTargets, quickMove, pickable } from './nerts-targets.js';
import { nertsMoveWords, stallWords } from './nerts-words.js';

/** @typedef {import('./nerts-types.js').NertsAction} NertsAction */
/** @typedef {import('./nerts-types.js').NertsSelection} NertsSelection */
/** @typedef {import('./nerts-types.js').NertsSrc} NertsSrc */
/** @typedef {import('../demon/protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('../demon/protocol-types.js').DemonEvent} DemonEvent */
/** @typedef {import('../demon/protocol-types.js').Round} Round */
/** @typedef {import('../demon/protocol-types.js').AckMessage} AckMessage */
/** @typedef {import('../demon/protocol-types.js').RejectedMessage} RejectedMessage */
/** @typedef {import('../demon/protocol-types.js').ErrorMessage} ErrorMessage */
/** @typedef {import('../demon/table.js').BeforeMove} BeforeMove */
/** @typedef {import('../demon/demon-panels.js').TableView} TableView */
/** @typedef {import('../cards/input.js').Ghost} Ghost */
/** @typedef {import('../cards/input.js').DropHow} DropHow */

// The stylesheet comes with the table: a Demon room, and the first visit, load none of it.
const STYLES = new URL('../styles/nerts.css', import.meta.url).href;
function loadStyles() {
  if (document.querySelector(`link[data-nerts-styles]`)) return;
  document.head.append(h('link', { rel: 'stylesheet', href: STYLES, dataset: { nertsStyles: '' } }));
}

/**
 * @param {HTMLElement} container
 * @param {import('../demon/room.js').RoomContext} ctx
 */
export function mount(container, ctx) {
  loadStyles();
  const model = ctx.model;

  const status = h('div', { class: 'table-status' });
  const opponents = h('section', { class: 'opponents', 'aria-label': t('table.opponents') });
  const foundations = h('section', { class: 'foundations', 'aria-label': t('table.foundations') });
  const mine = h('section', { class: 'mine nerts-mine', 'aria-label': t('nertsTable.yourLayout') });
  const results = h('div', { class: 'results-slot' });
  // The stall (N13) stays said until the next card goes home, for players and spectators
  // alike: laid over the bottom of the window (nerts.css), so that nothing moves.
  const stallNote = h('p', { class: 'stall-note', 'aria-hidden': 'true', hidden: true });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const el = h('div', { class: 'table nerts' }, status, results, opponents, foundations, mine, stallNote, live);
  container.append(el);

  const selection = createSelection(el, { pickOf, liftOf, targets: targetsFor, commit, quick });
  const pending = createPendingMoves({ liftOf: (s) => liftOf(/** @type {NertsSelection} */ (/** @type {unknown} */ (s))) });
  const stopWarming = warmFaces({ tabs: Boolean(window.matchMedia && window.matchMedia('(max-width: 600px)').matches) });
  const select = selection.select;
  const unbindKeys = bindKeys({
    d: draw, space: draw,
    n: () => pickKey('nerts'),
    w: () => pickKey('waste'),
    f: () => { const s = selection.get(); if (s) { select(null); quick(s, {}, { foundationOnly: true }); } },
    v: () => vote(),
    b: () => vote('bots'),
    Escape: () => select(null),
    Enter: () => { const a = document.activeElement; if (a && el.contains(a)) selection.activate(a); else return false; return true; },
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => growSelection(1),
    ArrowDown: () => growSelection(-1),
    ...Object.fromEntries([1, 2, 3, 4].map((n) => [String(n), () => pickKey(n - 1)])),
  });

  // ---- what the state says ---------------------------------------------------------
  const state = () => model.state;
  const round = () => (model.state ? model.state.round : null);
  const playing = () => Boolean(model.state && model.state.phase === 'playing' && model.seat !== null);
  function me() {
    const r = round();
    return r && model.seat !== null ? nertsSeats(r)[model.seat] || null : null;
  }
  /** @returns {NertsAction[]} */
  function legal() { return playing() ? /** @type {NertsAction[]} */ (/** @type {unknown} */ (model.legal || [])) : []; }

  // ---- selection and targets (from the legal list only) ----------------------------
  /** @param {HTMLElement} node */
  function pickOf(node) {
    return playing() ? selectionOf(node.dataset.pick, me()) : null;
  }

  /**
   * @param {NertsSelection | null} s
   * @returns {HTMLElement[]}
   */
  function liftOf(s) {
    return pickKeys(s, me()).map((key) => /** @type {HTMLElement | null} */ (mine.querySelector(`[data-pick="${key}"]`)))
      .filter((n) => n !== null);
  }

  /** @param {NertsSelection | null} s */
  function targetsFor(s) { return nertsTargets(legal(), s); }

  // ---- sending ---------------------------------------------------------------------
  /**
   * @param {NertsAction} action
   * @param {NertsSelection | null} s
   * @param {Ghost | null | undefined} ghost
   * @param {Element | null} targetNode
   */
  function send(action, s, ghost, targetNode) {
    const id = ctx.action(/** @type {DemonAction} */ (/** @type {unknown} */ (action)));
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
    pending.add(id, { ghost: g || null, sel: /** @type {import('../demon/protocol-types.js').DemonSelection | null} */ (/** @type {unknown} */ (s)),
      action: /** @type {DemonAction} */ (/** @type {unknown} */ (action)) });
    return true;
  }

  /** @param {string} key */
  function targetNodeFor(key) {
    return el.querySelector(`[data-target="${cssEscape(key)}"]`);
  }

  /**
   * @param {NertsSelection} s
   * @param {string} key
   * @param {DropHow} [how]
   */
  function commit(s, key, how = {}) {
    const action = actionFor(targetsFor(s).get(key));
    if (!action) return false;
    return send(action, s, how.ghost, targetNodeFor(key));
  }

  /**
   * A double-click: to the foundation that takes the card, else where it goes.
   * @param {NertsSelection} s
   * @param {DropHow} [how]
   * @param {{foundationOnly?: boolean}} [options]
   */
  function quick(s, how = {}, options = {}) {
    const move = quickMove(legal(), s, options);
    if (!move) {
      if (how.ghost) how.ghost.flyBack();
      return false;
    }
    return send(move.action, s, how.ghost, targetNodeFor(move.key));
  }

  function draw() {
    if (!playing()) return false;
    const a = stockAction(legal(), 'draw', 'recycle');
    if (!a) return true;
    select(null);
    if (send({ type: a.type }, null, null, null)) play('draw');
    return true;
  }

  /** @param {string} [how] 'toggle', 'end' (alone with bots), 'bots' (let them finish) */
  function vote(how = 'toggle') {
    const st = state();
    const r = round();
    if (!st || !r || model.seat === null || st.phase !== 'playing') return false;
    if (how === 'bots') {
      if (endChoice(st, model.seat) !== 'alone') return false;
      ctx.send({ type: 'vote', end: true, bots_finish: true });
      return true;
    }
    ctx.send({ type: 'vote', end: !(r.votes || []).includes(model.seat) });
    return true;
  }

  // keyboard: a number picks that work pile (again: a longer run) or drops the held
  // cards there; N picks the Nerts pile's top, W the waste's.
  /** @param {NertsSrc} src */
  function pickKey(src) {
    if (!playing()) return false;
    if (typeof src === 'number' && selection.dropOn(`t:${src}`)) return true;
    const sel = selection.get();
    if (typeof src !== 'number') {
      select(sel && sel.src === src ? null : (pickable(me(), src) ? { src, count: 1 } : null));
      return true;
    }
    const run = nextRun(sel, src, pickable(me(), src));
    select(run);
    if (!run) return true;
    const node = /** @type {HTMLElement | null} */ (mine.querySelector(`[data-focus="pile-${src}"]`));
    if (node) node.focus({ preventScroll: true });
    return true;
  }

  /** @param {number} delta */
  function growSelection(delta) {
    const sel = selection.get();
    if (!sel || typeof sel.src !== 'number') return false;
    select(resizeRun(sel, delta, pickable(me(), sel.src)));
    return true;
  }

  /** @param {number} delta */
  function moveFocus(delta) {
    const items = [.../** @type {NodeListOf<HTMLElement>} */ (mine.querySelectorAll('[data-focus]'))];
    if (!items.length) return false;
    const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    items[(i + delta + items.length) % items.length].focus();
    return true;
  }

  // ---- server answers --------------------------------------------------------------
  /** @param {AckMessage} msg */
  function onAck(msg) {
    const action = pending.ack(msg.id);
    if (action && action.type !== 'draw' && action.type !== 'recycle') play('place');
  }

  const notes = createRaceNotes({ mine, live, nameOf: (seat) => playerName(state(), seat, t) });
  /** @param {RejectedMessage} msg */
  function onRejected(msg) {
    pending.reject(msg.id);
    notes.rejected(msg);
  }

  // Before a move is applied, remember where the played card was, so that it can fly
  // from there to its foundation once drawn (as Demon's table does).
  /**
   * @param {DemonEvent} event
   * @returns {BeforeMove | null}
   */
  function beforeEvent(event) {
    if (event.kind !== 'move') return null;
    const plays = playsOf(event);
    const src = event.action ? event.action.src : undefined;
    if (event.seat === model.seat) {
      if (event.action && pending.landed(event.action)) return { plays: [], mine: true };
      const key = src === undefined ? null : pickKeys({ src: /** @type {NertsSrc} */ (src), count: 1 }, me())[0];
      const node = key ? mine.querySelector(`[data-pick="${key}"]`) : null;
      return { plays, from: node ? node.getBoundingClientRect() : null, mine: true };
    }
    return { plays, seat: event.seat, src, mine: false };
  }

  const flights = createFlights({ foundations, opponents });
  /**
   * @param {DemonEvent} event
   * @param {BeforeMove | null} before
   */
  function afterEvent(event, before) {
    if (event.kind === 'stall') {
      // everyone hears it and sees it: the round goes on, every stock turned over once
      live.textContent = stallWords(t);
      showStall(true);
      return;
    }
    if (event.kind !== 'move' || !before) return;
    if (!before.mine) play('other');
    if (before.mine && !before.from) return;
    for (const p of before.plays) {
      flights.push({ pile: p.pile, from: before.from, seat: before.seat, src: before.src, mine: before.mine,
        ms: before.mine ? 220 : 420 });
    }
  }

  /** @param {boolean} stalled */
  function showStall(stalled) {
    if (stallNote.textContent !== stallWords(t)) stallNote.textContent = stallWords(t);
    setHidden(stallNote, !stalled);
  }

  // ---- drawing ---------------------------------------------------------------------
  const statusBar = createStatusBar(status, { onVote: vote,
    onCloseTable: () => ctx.send({ type: 'set_open', open: false }) });
  const minePanel = createNertsMine(mine, { onDraw: draw, extra: ctx.emotes ? ctx.emotes.dock() : null });
  const opponentPanels = createNertsOpponents(opponents);
  const foundationPiles = createFoundations(foundations);
  const fit = createTableFit({ mine, results, above: [status, results, opponents, foundations] });
  const resultActions = {
    onNext: () => ctx.send({ type: 'next_round' }),
    onRematch: () => ctx.send({ type: 'rematch' }),
    onLeave: () => ctx.leave(),
    onSetOpen: (/** @type {boolean} */ open) => ctx.send({ type: 'set_open', open }),
  };

  /** @returns {TableView} */
  function view() {
    return { state: /** @type {import('../demon/protocol-types.js').RoomState} */ (state()), round: /** @type {Round} */ (round()),
      seat: model.seat, you: model.you, legal: model.seat === null ? [] : (playing() ? model.legal || [] : []), canAct: playing(),
      timeEnd: model.timeEnd, isHost: ctx.isHost(), muteButton: ctx.emotes ? ctx.emotes.muteButton : null };
  }

  /** @param {TableView} v */
  function drawMine(v) {
    if (minePanel.draw(v)) fit.mineDrawn(); // the room owed, once your layout needs it (demon/table.js)
    pending.hide();
    const held = selection.dragging();
    if (held) liftOf(/** @type {NertsSelection} */ (held)).forEach((n) => n.classList.add('lifted'));
  }

  function update() {
    if (!state() || !round()) return;
    const v = view();
    el.classList.toggle('spectator', model.seat === null);
    if (el.dataset.players !== String(v.round.seats.length)) el.dataset.players = String(v.round.seats.length);
    fit.drawn(v.round.foundations.length);
    statusBar.update(v);
    opponentPanels.draw(v);
    foundationPiles.draw(v);
    showStall(Boolean(v.round.stalled) && v.state.phase === 'playing');
    drawMine(v);
    drawResults(results, v, resultActions);
    fit.fitFirst();
    selection.repaint();
    statusBar.tick(model.timeEnd === null ? null : Math.max(0, model.timeEnd - performance.now()));
  }

  return {
    update,
    /** @param {number | null} msLeft */
    tick: (msLeft) => statusBar.tick(msLeft),
    onAck,
    onRejected,
    onRaceWon: notes.won,
    /** @param {ErrorMessage} _msg */
    onError: (_msg) => { pending.rejectAll(); },
    onSnapshot: () => { pending.clear(); selection.clear(); },
    onLegal: () => {
      if (!playing()) return;
      const v = view();
      drawMine(v);
      statusBar.update(v);
      selection.repaint();
    },
    beforeEvent,
    afterEvent,
    moveWords: nertsMoveWords,
    /** @returns {import('../demon/room.js').KeyHelp} */
    keys: () => [[t('nertsTable.keys'), [
      [`D / ${t('keys.space')}`, t('nertsTable.keyDraw')],
      ['N', t('nertsTable.keyNerts')],
      ['1 – 4', t('keys.pickPile')],
      ['W', t('keys.pickWaste')],
      ['↑ / ↓', t('keys.runLength')],
      ['F', t('keys.toFoundation')],
      ['Enter', t('keys.enter')],
      ['← / →', t('keys.focusMove')],
      ['V', t('keys.vote')],
      ['B', t('keys.botsFinish')],
      ['Esc', t('keys.drop')],
    ]]],
    destroy() {
      stopWarming();
      flights.destroy();
      foundationPiles.destroy();
      opponentPanels.destroy();
      fit.destroy();
      selection.destroy();
      unbindKeys();
      pending.destroy();
      el.remove();
    },
  };
}
