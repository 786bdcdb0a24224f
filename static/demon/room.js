// A Demon room at /r/{CODE}: finds (or asks for) this browser's seat, keeps the
// WebSocket, holds the state the server sent (room-model.js), and shows the lobby or
// the table.

import { h, replaceChildren, toast, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { RoomSocket } from './connection/socket.js';
import { playerById, playerName, isHost, playsOf } from './demon-model.js';
import { createRoomModel, adoptState, adoptEvent, adoptLegal, syncSeat, viewKind } from './room-model.js';
import { drawBanner, createCountdown, announce, showJoinForm } from './room-panels.js';
import { getRoomCreds, setRoomCreds, getRoomCache, setRoomCache, getAnnounce } from '../common/storage.js';
import { moveWords } from './announce.js';
import { cardName, seatColour } from '../cards/cards.js';
import * as lobbyView from './lobby.js';
import { createEmotes } from './emotes.js';
import { withOpenKeys } from '../tables/tables-model.js';

/** @typedef {import('./protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('./protocol-types.js').DemonEvent} DemonEvent */
/** @typedef {import('./protocol-types.js').MoveEvent} MoveEvent */
/** @typedef {import('./protocol-types.js').RoomState} RoomState */
/** @typedef {import('./protocol-types.js').ClientMessage} ClientMessage */
/** @typedef {import('./protocol-types.js').WelcomeMessage} WelcomeMessage */
/** @typedef {import('./protocol-types.js').LegalMessage} LegalMessage */
/** @typedef {import('./protocol-types.js').AckMessage} AckMessage */
/** @typedef {import('./protocol-types.js').RejectedMessage} RejectedMessage */
/** @typedef {import('./protocol-types.js').RaceWonMessage} RaceWonMessage */
/** @typedef {import('./protocol-types.js').ErrorMessage} ErrorMessage */
/** @typedef {import('./protocol-types.js').EmoteMessage} EmoteMessage */
/** @typedef {import('./room-model.js').RoomModel} RoomModel */
/** @typedef {import('./room-model.js').RoomCreds} RoomCreds */
/** @typedef {import('./table.js').BeforeMove} BeforeMove */
/** @typedef {Record<string, unknown>} Incoming a message as the socket parsed it: its handler says which it is */

// The close code of a seat the host removed (docs/protocol.md, open tables).
const REMOVED_CODE = 4003;

/**
 * The keyboard help a page adds to the header's (app.js): [title, [[keys, what]]] sections.
 * @typedef {[string, [string, string][]][]} KeyHelp
 */

/**
 * What the lobby and the table get from the room page.
 * @typedef {object} RoomContext
 * @property {RoomModel} model
 * @property {(msg: ClientMessage) => boolean} send false when offline
 * @property {(action: DemonAction) => string | null} action the action's id, or null when offline
 * @property {() => void} leave
 * @property {(path: string) => void} navigate
 * @property {() => boolean} isHost
 * @property {ReturnType<typeof createEmotes>} emotes
 */

/**
 * What a view (lobby.js, table.js) answers to; the room calls the handlers it has.
 * @typedef {object} ViewApi
 * @property {() => void} update
 * @property {() => void} destroy
 * @property {() => KeyHelp} keys
 * @property {() => void} [onSnapshot]
 * @property {() => void} [onLegal]
 * @property {(status: string) => void} [onStatus]
 * @property {(msg: AckMessage) => void} [onAck]
 * @property {(msg: RaceWonMessage) => void} [onRaceWon]
 * @property {(msg: unknown) => void} [onCoach]
 * @property {(msg: RejectedMessage) => void} [onRejected]
 * @property {(msg: ErrorMessage) => void} [onError]
 * @property {(msLeft: number | null) => void} [tick]
 * @property {(event: DemonEvent) => BeforeMove | null} [beforeEvent]
 * @property {(event: DemonEvent, before: BeforeMove | null) => void} [afterEvent]
 * @property {typeof moveWords} [moveWords] a play in words, if not as Demon's (announce.js)
 */

/** @typedef {{mount: (container: HTMLElement, ctx: RoomContext) => ViewApi}} ViewModule */

/**
 * @param {HTMLElement} container
 * @param {{code: string, navigate: (path: string) => void}} options
 */
export function mount(container, { code, navigate }) {
  const model = createRoomModel(code, getRoomCreds(code));
  /** @type {RoomSocket | null} */
  let socket = null;
  /** @type {{kind: 'lobby' | 'table' | 'nerts', api: ViewApi} | null} */
  let view = null;
  // The tables, import()ed rather than imported: the home page warms this module up for
  // a first visit (app.js), and the tables are most of a room's bytes. Demon's starts
  // loading as the room opens (it is on its way while the lobby shows), Nerts' when a
  // Nerts table is first shown; neither is part of a first visit.
  /** @type {Record<'table' | 'nerts', ViewModule | null>} */
  const tables = { table: null, nerts: null };
  /** @type {Set<'table' | 'nerts'>} */
  const loading = new Set();
  let destroyed = false;
  tableModule('table');
  /** @type {number | undefined} */
  let ticker;
  /** @type {number | undefined} */
  let saveTimer;
  let joinError = '';
  let removed = false; // the host removed this seat (close 4003)

  const root = h('div', { class: 'room' });
  const banner = h('div', { class: 'conn-banner', role: 'status', 'aria-live': 'polite' });
  const stage = h('div', { class: 'room-stage' });
  const overlay = h('div', { class: 'countdown', 'aria-live': 'assertive', hidden: true });
  // the page's one level-one heading (the join form has its own)
  const heading = h('h1', { class: 'sr-only' });
  // every play, read out politely (or only this player's own: storage.js getAnnounce)
  const said = h('div', { class: 'sr-only', id: 'plays-said', role: 'log', 'aria-live': 'polite' });
  replaceChildren(container, h('div', { class: 'room-wrap' }, heading, banner, root, said));
  root.append(stage, overlay);
  const countdown = createCountdown(overlay);
  const emotes = createEmotes(root, { model, code, send: (msg) => (socket ? socket.send(msg) : false) });

  // What the lobby and the table get from the page.
  /** @type {RoomContext} */
  const ctx = {
    model,
    send: (msg) => (socket ? socket.send(msg) : false),
    action: (action) => (socket ? socket.action(action) : null),
    leave,
    navigate,
    isHost: () => isHost(model.state, model.you),
    emotes,
  };
  /**
   * Calls the view's handler `name`, when it has one; true when it did.
   * @param {keyof ViewApi} name
   * @param {...unknown} args what that handler takes
   */
  const tell = (name, ...args) => {
    const handler = view ? view.api[name] : undefined;
    if (!handler) return false;
    /** @type {(...args: unknown[]) => unknown} */ (handler)(...args);
    return true;
  };

  // ---- connection --------------------------------------------------------------
  // (only with credentials: the callers check model.creds)
  function connect() {
    const creds = /** @type {RoomCreds} */ (model.creds);
    const cache = getRoomCache(code);
    /** @type {number | null} */
    let v = null;
    /** @type {string | number | null} */
    let epoch = null;
    if (cache && cache.token === creds.token && cache.state) {
      adoptState(model, cache.state, performance.now());
      model.legal = Array.isArray(cache.legal) ? cache.legal : [];
      model.legalV = cache.legalV ?? -1;
      v = cache.v;
      epoch = /** @type {string | number | null} */ (cache.epoch ?? null); // what a welcome named
    }
    model.seat = creds.seat ?? null;
    model.you = creds.you ?? null;
    syncSeat(model);
    socket = new RoomSocket(code, creds.token, v, {
      status: onStatus,
      /** @param {Incoming} m */
      welcome: (m) => {
        const msg = /** @type {WelcomeMessage} */ (m);
        model.seat = msg.seat ?? null;
        if (msg.you) model.you = msg.you;
        syncSeat(model);
        if (model.creds && (model.creds.seat !== model.seat || model.creds.you !== model.you)) {
          model.creds = { ...model.creds, seat: model.seat, you: model.you, spectator: model.seat === null };
          setRoomCreds(code, model.creds);
        }
        render();
      },
      /** @param {RoomState} state */
      snapshot: (state) => {
        adoptState(model, state, performance.now());
        tell('onSnapshot');
        render();
        save();
      },
      event: onEvent,
      /** @param {Incoming} m */
      legal: (m) => {
        const msg = /** @type {LegalMessage} */ (m);
        if (!adoptLegal(model, msg)) return;
        tell('onLegal');
        save();
      },
      /** @param {Incoming} m */
      ack: (m) => tell('onAck', /** @type {AckMessage} */ (m)),
      /** @param {Incoming} m */
      raceWon: (m) => tell('onRaceWon', /** @type {RaceWonMessage} */ (m)),
      /** @param {unknown} msg */
      coach: (msg) => tell('onCoach', msg),
      /** @param {Incoming} m */
      rejected: (m) => {
        const msg = /** @type {RejectedMessage} */ (m);
        if (!tell('onRejected', msg)) toast(msg.reason || t('table.rejected'), 'warn');
      },
      /** @param {Incoming} m */
      emote: (m) => emotes.show(/** @type {EmoteMessage} */ (m)),
      /** @param {Incoming} m */
      error: (m) => {
        const msg = /** @type {ErrorMessage} */ (m);
        if (emotes.onError(msg)) return;
        tell('onError', msg);
        toast(t('room.serverSays', { message: msg.message || msg.code || '?' }), 'warn');
      },
    }, epoch);
    socket.connect();
    ticker = setInterval(tick, 200);
    render();
  }

  /**
   * @param {string} status
   * @param {string | number} [detail] the close code, for a socket that closed
   */
  function onStatus(status, detail) {
    if (status === 'lost' && detail === REMOVED_CODE) { removedByHost(); return; }
    if (removed) return;
    model.status = status;
    if (status === 'denied') {
      // the token is not (or no longer) good for this room: ask to join again
      setRoomCreds(code, null);
      setRoomCache(code, null);
      stopSocket();
      model.creds = null;
      model.state = null;
      joinError = t('room.seatLost');
      showJoin();
      return;
    }
    if (status === 'closed' && model.leaving) return;
    renderBanner();
    tell('onStatus', status);
  }

  // Events are taken into the model as they come, and drawn once a frame: at a table of
  // eight the bots' plays often arrive several to a frame (and, on a slow phone, many
  // while the page was busy), and each drawn on its own was work no one saw (a slow
  // table at eight seats, docs/performance.md).
  // What the view wants to know per event (where a played card was) is still asked
  // before the event changes the model; the flights start after the drawing.
  //
  // Another seat's play that sent no card to a foundation (a draw, a move inside its own
  // layout) changes only that seat's small panel, and is drawn within QUIET_MS rather
  // than in the next frame: at eight seats most plays are such, and each frame the page
  // draws costs it a few ms whatever changed in it (style, layout, paint, compositing;
  // a Chromium trace, bench/page.py --trace). Anything else (a card to a foundation,
  // your own play, the room's events) is drawn in the next frame, with every quiet play
  // taken in before it.
  const QUIET_MS = 200;
  let drawQueued = false;
  /** @type {number | null} */
  let quietTimer = null;
  let lastDrawn = -Infinity;
  /** @type {[DemonEvent, BeforeMove | null][]} [event, before] taken in since the last drawing */
  let drawn = [];
  /** @param {DemonEvent} incoming */
  function onEvent(incoming) {
    // a `room` event without `open` or `fill_at`: the table is closed, no fill is coming
    const event = incoming.kind === 'room' ? { ...incoming, state: withOpenKeys(incoming.state) } : incoming;
    const before = view && view.api.beforeEvent ? view.api.beforeEvent(event) : null;
    adoptEvent(model, event, performance.now());
    if (event.kind === 'countdown') countdown.reset();
    if (event.kind === 'round_started') countdown.go();
    if (event.kind === 'round_ended') {
      const winner = playerById(model.state, event.result.winner);
      const colour = winner && 'colour' in winner ? winner.colour : null; // a spectator has none
      announce(event.result, winner, colour !== null ? seatColour(colour) : null);
    }
    drawn.push([event, before]);
    if (quiet(event)) drawSoon();
    else drawNextFrame();
    save();
  }

  /** @param {DemonEvent} event */
  function quiet(event) {
    return event.kind === 'move' && event.seat !== model.seat && playsOf(event).length === 0;
  }

  function drawNextFrame() {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(drawEvents);
  }

  function drawSoon() {
    if (drawQueued || quietTimer !== null) return;
    const wait = lastDrawn + QUIET_MS - performance.now();
    if (wait <= 0) drawNextFrame();
    else quietTimer = setTimeout(() => { quietTimer = null; drawNextFrame(); }, wait);
  }

  function drawEvents() {
    if (!drawQueued) return; // drawn already: a snapshot or a view change drew everything
    render();
  }

  // Tells the view which events the drawing just showed (afterEvent starts their flights),
  // and a screen reader the plays in them (with the drawing: a line added to the log is
  // a change the page draws too).
  function afterDrawn() {
    const done = drawn;
    drawn = [];
    for (const [event, before] of done) {
      if (event.kind === 'move') sayMove(event);
      tell('afterEvent', event, before);
    }
  }

  /** @param {MoveEvent} event */
  function sayMove(event) {
    const mine = model.seat !== null && event.seat === model.seat;
    if (!mine && getAnnounce() === 'mine') return;
    const name = mine ? t('say.you') : playerName(model.state, event.seat);
    const say = view && view.api.moveWords ? view.api.moveWords : moveWords;
    const words = say(event, { t, cardName, name, mine });
    if (!words) return;
    said.append(h('p', { text: words }));
    while (said.firstElementChild && said.childElementCount > 4) said.firstElementChild.remove();
  }

  function save() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(flushSave, 150);
  }

  function flushSave() {
    clearTimeout(saveTimer);
    if (!socket || !model.creds || model.state === null || socket.v === null) return;
    setRoomCache(code, { token: model.creds.token, v: socket.v, epoch: socket.epoch, state: model.state,
      legal: model.legal, legalV: model.legalV });
  }

  function stopSocket() {
    if (socket) socket.close();
    socket = null;
    clearInterval(ticker);
  }

  function leave() {
    model.leaving = true;
    if (socket) socket.send({ type: 'leave' });
    model.creds = null;
    setRoomCreds(code, null);
    setRoomCache(code, null);
    setTimeout(() => { stopSocket(); navigate('/'); }, 150);
  }

  // Removed by the host (close 4003, open tables): the seat is gone for good, so no
  // reconnecting and no join form; the page says so and offers the home page.
  function removedByHost() {
    removed = true;
    setRoomCreds(code, null);
    setRoomCache(code, null);
    stopSocket();
    model.creds = null;
    if (view && view.api.destroy) view.api.destroy();
    view = null;
    countdown.forget();
    replaceChildren(banner);
    document.body.classList.remove('offline');
    const home = h('a', { href: '/', class: 'button primary', id: 'removed-home',
      onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); navigate('/'); } }, t('tables.removedHome'));
    replaceChildren(stage, h('section', { class: 'panel removed-note', role: 'alert' },
      h('p', { id: 'removed-text', text: t('tables.removed') }), home));
    home.focus();
  }

  // ---- timers: countdown overlay and time left -----------------------------------
  function tick() {
    const now = performance.now();
    countdown.tick(model.countdownEnd, now);
    tell('tick', model.timeEnd === null ? null : Math.max(0, model.timeEnd - now));
  }

  // ---- rendering -------------------------------------------------------------------
  function renderBanner() {
    drawBanner(banner, { status: model.status, hasState: Boolean(model.state), leaving: model.leaving },
      () => socket && socket.reconnectNow());
  }

  function render() {
    drawQueued = false;
    if (quietTimer !== null) clearTimeout(quietTimer);
    quietTimer = null;
    lastDrawn = performance.now();
    if (destroyed || removed) return;
    setHidden(heading, false);
    const nerts = /** @type {{game?: string}} */ ((model.state || {}).options || {}).game === 'nerts';
    const title = t(nerts ? 'room.headingNerts' : 'room.heading', { code });
    if (heading.textContent !== title) heading.textContent = title;
    renderBanner();
    const shown = viewKind(model.state);
    const kind = shown === 'table' && nerts ? 'nerts' : shown;
    if (!kind) {
      drawn = [];
      if (!view) replaceChildren(stage, h('p', { class: 'loading', text: t('room.connecting') }));
      return;
    }
    if (!view || view.kind !== kind) {
      const mod = kind === 'lobby' ? lobbyView : tableModule(kind);
      if (!mod) return; // on its way: drawn when it comes
      if (view && view.api.destroy) view.api.destroy();
      replaceChildren(stage);
      view = { kind, api: mod.mount(stage, ctx) };
    }
    view.api.update();
    emotes.update();
    const pageTitle = `${code} · ${t('app.title')}`;
    if (document.title !== pageTitle) document.title = pageTitle;
    afterDrawn();
  }

  // A table's module, or null while it is on its way (drawn when it comes). A failed
  // import is a page older than the server's files (or offline): reload.
  /**
   * @param {'table' | 'nerts'} kind
   * @returns {ViewModule | null}
   */
  function tableModule(kind) {
    if (!tables[kind] && !loading.has(kind)) {
      loading.add(kind);
      const load = kind === 'nerts' ? import('../nerts/nerts-table.js') : import('./table.js');
      // drawn when it comes, unless the join form is up (no seat yet: nothing to draw)
      load.then((mod) => { tables[kind] = mod; if (!destroyed && model.creds) render(); },
        () => { loading.delete(kind); toast(t('nertsTable.outdated'), 'warn'); });
    }
    return tables[kind];
  }

  // ---- joining by link ---------------------------------------------------------------
  function showJoin() {
    if (view && view.api.destroy) view.api.destroy();
    view = null;
    heading.hidden = true;
    renderBanner();
    showJoinForm(stage, {
      code,
      error: joinError,
      navigate,
      stillWanted: () => !destroyed && !model.creds,
      /** @param {RoomCreds} creds */
      onJoined: (creds) => {
        model.creds = creds;
        setRoomCreds(code, creds);
        joinError = '';
        connect();
      },
    });
  }

  if (model.creds && model.creds.token) connect();
  else showJoin();

  window.addEventListener('pagehide', flushSave);

  return {
    rerender: () => {
      if (removed) { removedByHost(); return; }
      if (!model.creds) { showJoin(); return; }
      if (view && view.api.destroy) view.api.destroy();
      view = null;
      countdown.forget();
      render();
    },
    title: () => `${code} · ${t('app.title')}`,
    keys: () => (view && view.api.keys ? view.api.keys() : []),
    destroy() {
      destroyed = true;
      if (quietTimer !== null) clearTimeout(quietTimer);
      flushSave();
      window.removeEventListener('pagehide', flushSave);
      if (view && view.api.destroy) view.api.destroy();
      emotes.destroy();
      stopSocket();
      document.body.classList.remove('offline');
    },
  };
}
