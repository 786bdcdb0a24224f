// A Demon room at /r/{CODE}: finds (or asks for) this browser's seat, keeps the
// WebSocket, holds the state the server sent, and shows the lobby or the table.

import { h, replaceChildren, toast, button } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { RoomSocket } from './socket.js';
import { applyEvent, playerById, isHost, seatOf } from './demon-model.js';
import { getPref, setPref, getRoomCreds, setRoomCreds, getRoomCache, setRoomCache } from './storage.js';
import { play } from './sound.js';
import { errorText } from './ui.js';
import * as lobbyView from './lobby.js';
import { botBadge } from './bot-badge.js';
import * as tableView from './table.js';

export function mount(container, { code, navigate }) {
  const model = {
    code,
    creds: getRoomCreds(code),
    seat: null,
    you: null, // this browser's player id in the room
    state: null,
    legal: [],
    legalV: -1,
    status: 'connecting',
    countdownEnd: null, // performance.now() deadline
    timeEnd: null,
  };
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
  replaceChildren(container, h('div', { class: 'room-wrap' }, banner, root));
  root.append(stage, overlay);

  const ctx = {
    model,
    send: (msg) => (socket ? socket.send(msg) : false),
    action: (action) => (socket ? socket.action(action) : null),
    leave,
    navigate,
    isHost: () => isHost(model.state, model.you),
  };

  // ---- connection --------------------------------------------------------------
  function connect() {
    const cache = getRoomCache(code);
    let v = null;
    let epoch = null;
    if (cache && cache.token === model.creds.token && cache.state) {
      model.state = cache.state;
      model.legal = Array.isArray(cache.legal) ? cache.legal : [];
      model.legalV = cache.legalV ?? -1;
      v = cache.v;
      epoch = cache.epoch ?? null;
      adoptTimers(model.state);
    }
    model.seat = model.creds.seat ?? null;
    model.you = model.creds.you ?? null;
    syncSeat();
    socket = new RoomSocket(code, model.creds.token, v, {
      status: onStatus,
      welcome: (msg) => {
        model.seat = msg.seat ?? null;
        if (msg.you) model.you = msg.you;
        syncSeat();
        if (model.creds.seat !== model.seat || model.creds.you !== model.you) {
          model.creds = { ...model.creds, seat: model.seat, you: model.you, spectator: model.seat === null };
          setRoomCreds(code, model.creds);
        }
        render();
      },
      snapshot: (state) => {
        model.state = state;
        syncSeat();
        adoptTimers(state);
        if (view && view.api.onSnapshot) view.api.onSnapshot();
        render();
        save();
      },
      event: onEvent,
      legal: (msg) => {
        if (typeof msg.v === 'number' && msg.v < model.legalV) return;
        model.legal = Array.isArray(msg.actions) ? msg.actions : [];
        model.legalV = typeof msg.v === 'number' ? msg.v : model.legalV;
        if (view && view.api.onLegal) view.api.onLegal();
        save();
      },
      ack: (msg) => { if (view && view.api.onAck) view.api.onAck(msg); },
      rejected: (msg) => {
        if (view && view.api.onRejected) view.api.onRejected(msg);
        else toast(msg.reason || t('table.rejected'), 'warn');
      },
      error: (msg) => {
        if (view && view.api.onError) view.api.onError(msg);
        toast(t('room.serverSays', { message: msg.message || msg.code || '?' }), 'warn');
      },
    }, epoch);
    socket.connect();
    ticker = setInterval(tick, 200);
    render();
  }

  // A spectator is seated when a round starts and seats move up when someone leaves
  // the lobby: the seat is whatever the players list says for our player id.
  function syncSeat() {
    if (model.state && model.you) model.seat = seatOf(model.state, model.you);
  }

  function adoptTimers(state) {
    const now = performance.now();
    model.countdownEnd = state.phase === 'countdown' && state.countdown_ends_in_ms !== null
      && state.countdown_ends_in_ms !== undefined ? now + state.countdown_ends_in_ms : null;
    model.timeEnd = state.phase === 'playing' && typeof state.time_left_ms === 'number'
      ? now + state.time_left_ms : null;
  }

  function onStatus(status, detail) {
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
    if (view && view.api.onStatus) view.api.onStatus(status);
  }

  function onEvent(event) {
    const before = view && view.api.beforeEvent ? view.api.beforeEvent(event) : null;
    model.state = applyEvent(model.state, event);
    syncSeat();
    const now = performance.now();
    switch (event.kind) {
      case 'countdown':
        model.countdownEnd = now + (event.ends_in_ms || 0);
        lastBeep = null;
        break;
      case 'round_started':
        model.countdownEnd = null;
        model.timeEnd = typeof event.time_left_ms === 'number' ? now + event.time_left_ms : null;
        showGo();
        break;
      case 'round_ended':
        model.timeEnd = null;
        announce(event.result);
        break;
      case 'room':
        if (model.state.phase !== 'countdown') model.countdownEnd = null;
        if (model.state.phase !== 'playing') model.timeEnd = null;
        break;
      default:
        break;
    }
    render();
    if (view && view.api.afterEvent) view.api.afterEvent(event, before);
    save();
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
  let lastBeep = null;
  function tick() {
    const now = performance.now();
    if (model.countdownEnd !== null && model.countdownEnd > now - 100) {
      const n = Math.max(1, Math.ceil((model.countdownEnd - now) / 1000));
      overlay.hidden = false;
      if (overlay.dataset.n !== String(n)) {
        overlay.dataset.n = String(n);
        replaceChildren(overlay, h('div', { class: 'countdown-box' },
          h('span', { class: 'countdown-label', text: t('room.getReady') }),
          h('span', { class: 'countdown-n', text: String(n) })));
        if (lastBeep !== n) { lastBeep = n; play('tick'); }
      }
    } else if (!overlay.classList.contains('go')) {
      overlay.hidden = true;
      delete overlay.dataset.n;
    }
    if (view && view.api.tick) {
      view.api.tick(model.timeEnd === null ? null : Math.max(0, model.timeEnd - now));
    }
  }

  function showGo() {
    play('go');
    overlay.hidden = false;
    overlay.classList.add('go');
    delete overlay.dataset.n;
    replaceChildren(overlay, h('div', { class: 'countdown-box' }, h('span', { class: 'countdown-n', text: t('room.go') })));
    setTimeout(() => { overlay.classList.remove('go'); overlay.hidden = true; }, 700);
  }

  function announce(result) {
    if (!result) return;
    if (result.reason === 'demon') {
      play('win');
      const winner = playerById(model.state, result.winner);
      const name = winner ? winner.name : '?';
      const box = h('div', { class: 'demon-call', role: 'alert' },
        h('span', { class: 'demon-word', text: t('table.demonCall') }),
        h('span', { class: 'demon-name', text: name }, botBadge(winner)));
      document.body.append(box);
      setTimeout(() => box.classList.add('out'), 2300);
      setTimeout(() => box.remove(), 2800);
    } else {
      play('end');
    }
  }

  // ---- rendering -------------------------------------------------------------------
  function renderBanner() {
    const s = model.status;
    banner.className = `conn-banner conn-${s}`;
    if (s === 'reconnecting' || (s === 'connecting' && model.state)) {
      replaceChildren(banner, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('room.reconnecting'));
    } else if (s === 'lost') {
      replaceChildren(banner, t('room.lost'), ' ', button(t('room.reconnect'), () => socket && socket.reconnectNow()));
    } else if (s === 'replaced') {
      replaceChildren(banner, t('room.replaced'), ' ', button(t('room.takeBack'), () => socket && socket.reconnectNow()));
    } else if (s === 'closed' && !model.leaving) {
      replaceChildren(banner, t('room.closed'), ' ', button(t('room.reconnect'), () => socket && socket.reconnectNow()));
    } else {
      replaceChildren(banner);
    }
    document.body.classList.toggle('offline', s !== 'online');
  }

  function wantedView() {
    const st = model.state;
    if (!st) return null;
    if (st.phase === 'lobby') return 'lobby';
    if (st.round) return 'table';
    return 'lobby';
  }

  function render() {
    if (destroyed) return;
    renderBanner();
    const kind = wantedView();
    if (!kind) {
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
    document.title = `${code} · ${t('app.title')}`;
  }

  // ---- joining by link ---------------------------------------------------------------
  function showJoin() {
    if (view && view.api.destroy) view.api.destroy();
    view = null;
    renderBanner();
    let info = null;
    let busy = false;
    let name = getPref('name', '');
    function draw() {
      if (destroyed || model.creds) return;
      const nameInput = h('input', { id: 'link-name', type: 'text', maxlength: '20', required: true,
        autocomplete: 'nickname', value: name, oninput: (e) => { name = e.target.value; } });
      const players = info && info.players ? h('ul', { class: 'join-players' },
        info.players.map((p) => h('li', null, p.name, botBadge(p) ? ' ' : null, botBadge(p)))) : null;
      replaceChildren(stage, h('form', { class: 'panel join-link', onsubmit: submit },
        h('h1', null, t('room.joinTitle'), ' ', h('span', { class: 'code-small', text: code })),
        info === false ? h('p', { class: 'error', role: 'alert', text: t('home.noSuchRoom') }) : null,
        players,
        info && info.phase && info.phase !== 'lobby' ? h('p', { class: 'note', text: t('room.inProgress') }) : null,
        joinError ? h('p', { class: 'error', role: 'alert', text: joinError }) : null,
        h('label', { for: 'link-name' }, h('span', { text: t('home.yourName') }), nameInput),
        h('div', { class: 'row' },
          h('button', { type: 'submit', class: 'primary', id: 'join-by-link', disabled: busy || info === false }, t('home.joinButton')),
          h('a', { href: '/', class: 'button secondary', onclick: (e) => { e.preventDefault(); navigate('/'); } }, t('room.backHome')))));
      if (!name) nameInput.focus();
    }
    async function submit(e) {
      e.preventDefault();
      const clean = name.trim();
      if (!clean) { joinError = t('home.nameNeeded'); draw(); return; }
      busy = true; draw();
      try {
        const answer = await api.joinRoom(code, clean);
        setPref('name', clean);
        model.creds = { code: answer.code, token: answer.token, seat: answer.seat,
          you: answer.you ?? null, spectator: answer.spectator, name: clean };
        setRoomCreds(code, model.creds);
        joinError = '';
        connect();
      } catch (err) {
        busy = false;
        joinError = err.status === 404 ? t('home.noSuchRoom') : errorText(err);
        draw();
      }
    }
    api.getRoom(code).then((data) => { info = data; draw(); })
      .catch((err) => { info = err.status === 404 ? false : null; draw(); });
    draw();
  }

  if (model.creds && model.creds.token) connect();
  else showJoin();

  window.addEventListener('pagehide', flushSave);

  return {
    rerender: () => {
      if (!model.creds) { showJoin(); return; }
      if (view && view.api.destroy) view.api.destroy();
      view = null;
      delete overlay.dataset.n;
      render();
    },
    title: () => `${code} · ${t('app.title')}`,
    keys: () => (view && view.api.keys ? view.api.keys() : []),
    destroy() {
      destroyed = true;
      flushSave();
      window.removeEventListener('pagehide', flushSave);
      if (view && view.api.destroy) view.api.destroy();
      stopSocket();
      document.body.classList.remove('offline');
    },
  };
}

