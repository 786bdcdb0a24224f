// A Demon room at /r/{CODE}: finds (or asks for) this browser's seat, keeps the
// WebSocket, holds the state the server sent (room-model.js), and shows the lobby or
// the table.

import { h, replaceChildren, toast, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { RoomSocket } from './socket.js';
import { playerById, playerName, isHost, playsOf } from './demon-model.js';
import { createRoomModel, adoptState, adoptEvent, adoptLegal, syncSeat, viewKind } from './room-model.js';
import { drawBanner, createCountdown, announce, showJoinForm } from './room-panels.js';
import { getRoomCreds, setRoomCreds, getRoomCache, setRoomCache, getAnnounce } from '../common/storage.js';
import { moveWords } from './announce.js';
import { cardName, seatColour } from '../cards/cards.js';
import * as lobbyView from './lobby.js';
import * as tableView from './table.js';
import { createEmotes } from './emotes.js';

export function mount(container, { code, navigate }) {
  const model = createRoomModel(code, getRoomCreds(code));
  let socket = null;
  let view = null; // {kind, api}
  let destroyed = false;
  let ticker = null;
  let saveTimer = null;
  let joinError = '';

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
  const ctx = {
    model,
    send: (msg) => (socket ? socket.send(msg) : false),
    action: (action) => (socket ? socket.action(action) : null),
    leave,
    navigate,
    isHost: () => isHost(model.state, model.you),
    emotes,
  };
  const tell = (name, ...args) => (view && view.api[name] ? (view.api[name](...args), true) : false);

  // ---- connection --------------------------------------------------------------
  function connect() {
    const cache = getRoomCache(code);
    let v = null;
    let epoch = null;
    if (cache && cache.token === model.creds.token && cache.state) {
      adoptState(model, cache.state, performance.now());
      model.legal = Array.isArray(cache.legal) ? cache.legal : [];
      model.legalV = cache.legalV ?? -1;
      v = cache.v;
      epoch = cache.epoch ?? null;
    }
    model.seat = model.creds.seat ?? null;
    model.you = model.creds.you ?? null;
    syncSeat(model);
    socket = new RoomSocket(code, model.creds.token, v, {
      status: onStatus,
      welcome: (msg) => {
        model.seat = msg.seat ?? null;
        if (msg.you) model.you = msg.you;
        syncSeat(model);
        if (model.creds.seat !== model.seat || model.creds.you !== model.you) {
          model.creds = { ...model.creds, seat: model.seat, you: model.you, spectator: model.seat === null };
          setRoomCreds(code, model.creds);
        }
        render();
      },
      snapshot: (state) => {
        adoptState(model, state, performance.now());
        tell('onSnapshot');
        render();
        save();
      },
      event: onEvent,
      legal: (msg) => {
        if (!adoptLegal(model, msg)) return;
        tell('onLegal');
        save();
      },
      ack: (msg) => tell('onAck', msg),
      raceWon: (msg) => tell('onRaceWon', msg),
      coach: (msg) => tell('onCoach', msg),
      rejected: (msg) => {
        if (!tell('onRejected', msg)) toast(msg.reason || t('table.rejected'), 'warn');
      },
      emote: (msg) => emotes.show(msg),
      error: (msg) => {
        if (emotes.onError(msg)) return;
        tell('onError', msg);
        toast(t('room.serverSays', { message: msg.message || msg.code || '?' }), 'warn');
      },
    }, epoch);
    socket.connect();
    ticker = setInterval(tick, 200);
    render();
  }

  function onStatus(status) {
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
  // while the page was busy), and each drawn on its own was work no one saw (issue 23).
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
  let quietTimer = null;
  let lastDrawn = -Infinity;
  let drawn = []; // [event, before] taken in since the last drawing
  function onEvent(event) {
    const before = view && view.api.beforeEvent ? view.api.beforeEvent(event) : null;
    adoptEvent(model, event, performance.now());
    if (event.kind === 'countdown') countdown.reset();
    if (event.kind === 'round_started') countdown.go();
    if (event.kind === 'round_ended') {
      const winner = playerById(model.state, event.result.winner);
      announce(event.result, winner, winner && winner.colour !== null ? seatColour(winner.colour) : null);
    }
    drawn.push([event, before]);
    if (quiet(event)) drawSoon();
    else drawNextFrame();
    save();
  }

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

  function sayMove(event) {
    const mine = model.seat !== null && event.seat === model.seat;
    if (!mine && getAnnounce() === 'mine') return;
    const name = mine ? t('say.you') : playerName(model.state, event.seat);
    const words = moveWords(event, { t, cardName, name, mine });
    if (!words) return;
    said.append(h('p', { text: words }));
    while (said.childElementCount > 4) said.firstElementChild.remove();
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
    clearTimeout(quietTimer);
    quietTimer = null;
    lastDrawn = performance.now();
    if (destroyed) return;
    setHidden(heading, false);
    const title = t('room.heading', { code });
    if (heading.textContent !== title) heading.textContent = title;
    renderBanner();
    const kind = viewKind(model.state);
    if (!kind) {
      drawn = [];
      if (!view) replaceChildren(stage, h('p', { class: 'loading', text: t('room.connecting') }));
      return;
    }
    if (!view || view.kind !== kind) {
      if (view && view.api.destroy) view.api.destroy();
      replaceChildren(stage);
      const mod = kind === 'lobby' ? lobbyView : tableView;
      view = { kind, api: mod.mount(stage, ctx) };
    }
    view.api.update();
    emotes.update();
    const pageTitle = `${code} · ${t('app.title')}`;
    if (document.title !== pageTitle) document.title = pageTitle;
    afterDrawn();
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
      clearTimeout(quietTimer);
      flushSave();
      window.removeEventListener('pagehide', flushSave);
      if (view && view.api.destroy) view.api.destroy();
      emotes.destroy();
      stopSocket();
      document.body.classList.remove('offline');
    },
  };
}
