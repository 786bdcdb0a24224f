// One WebSocket per seat, exactly as docs/protocol.md describes it:
//  * the first frame is `hello` with the token, the last version seen and `protocol`
//    (a close 4001: this page is too old; it asks to be reloaded);
//  * an event is applied only when its v is the last v + 1; an older v is a duplicate
//    and dropped; a newer one means we missed something, so we ask for `resync`;
//  * a `snapshot` replaces the whole state;
//  * closes 1001/1006/1012/1013 reconnect with a growing delay; 1000 means we left,
//    1008 before the welcome that the token is no good (after it: the seat was opened in
//    another tab, so this one stops and offers to take it back).
// Those decisions are socket-state.js's (pure, node-tested); this file holds the
// WebSocket, the ping and reconnection timers and the browser's events.

import { createSocketState, opened, welcomed, snapshotTaken, eventVerdict, startResync, closeOutcome,
  nextReconnectDelay, messagesOf, actionIdOf, relayedHandler, PROTOCOL } from './socket-state.js';

const PING_EVERY_MS = 20000;

let actionCounter = 0;

/** A new client id for an action. */
export function newActionId() {
  actionCounter += 1;
  return actionIdOf(Date.now(), actionCounter, Math.random());
}

/** @typedef {Record<string, any>} ServerMessage one message of docs/protocol.md */

/**
 * What the socket tells the room page. `status` gets 'connecting' | 'online' |
 * 'reconnecting' | 'closed' | 'denied' | 'replaced' | 'lost' | 'outdated', with a close code or reason.
 * @typedef {object} SocketHandlers
 * @property {(status: string, detail?: string | number) => void} [status]
 * @property {(msg: ServerMessage) => void} [welcome]
 * @property {(state: any, v: number) => void} snapshot
 * @property {(event: any, v: number) => void} event
 * @property {(msg: ServerMessage) => void} [legal]
 * @property {(msg: ServerMessage) => void} [ack]
 * @property {(msg: ServerMessage) => void} [rejected]
 * @property {(msg: ServerMessage) => void} [error]
 * @property {(msg: ServerMessage) => void} [coach]
 * @property {(msg: ServerMessage) => void} [raceWon]
 * @property {(msg: ServerMessage) => void} [emote]
 */

export class RoomSocket {
  /**
   * `v` and `epoch`: where a page that was here before left off (the version, and the
   * server run it came from, which a `welcome` names); null for a fresh start.
   * @param {string} code
   * @param {string} token
   * @param {number | null | undefined} v
   * @param {SocketHandlers} handlers
   * @param {string | number | null} [epoch]
   */
  constructor(code, token, v, handlers, epoch = null) {
    this.code = code;
    this.token = token;
    this.state = createSocketState(v, epoch);
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    this.closedByUs = false;
    this.status = 'connecting';
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && this.status === 'reconnecting') this.reconnectNow();
    };
    this.onOnline = () => { if (this.status === 'reconnecting') this.reconnectNow(); };
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
  }

  /** The last version applied (null: none yet); the room page caches it. */
  get v() { return this.state.v; }

  /** The server run the version comes from. */
  get epoch() { return this.state.epoch; }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  /**
   * @param {string} status
   * @param {string | number} [detail]
   */
  setStatus(status, detail) {
    this.status = status;
    if (this.handlers.status) this.handlers.status(status, detail);
  }

  connect() {
    clearTimeout(this.timer);
    this.closedByUs = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.state.welcomed = false;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.rawSend({ ...opened(this.state, this.token), protocol: PROTOCOL });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.rawSend({ type: 'ping' }), PING_EVERY_MS);
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.ws || typeof e.data !== 'string') return;
      for (const msg of messagesOf(e.data)) {
        if (ws !== this.ws) return; // a message may have closed this socket
        this.receive(msg);
      }
    });
    ws.addEventListener('close', (e) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.closedByUs) return;
      const outcome = closeOutcome(this.state, e.code, e.reason);
      if (outcome.kind === 'reconnect') this.scheduleReconnect();
      else this.setStatus(outcome.status, outcome.detail);
    });
  }

  scheduleReconnect() {
    this.setStatus('reconnecting');
    const delay = nextReconnectDelay(this.state, Math.random());
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    this.connect();
  }

  /** @param {ServerMessage} msg */
  receive(msg) {
    const h = this.handlers;
    switch (msg.type) {
      case 'welcome': {
        const behind = welcomed(this.state, msg);
        this.setStatus('online');
        if (h.welcome) h.welcome(msg);
        if (behind) this.resync();
        break;
      }
      case 'snapshot':
        snapshotTaken(this.state, msg.v);
        h.snapshot(msg.state, msg.v);
        break;
      case 'event': {
        const verdict = eventVerdict(this.state, msg.v);
        if (verdict === 'apply') h.event(msg.event, msg.v);
        else if (verdict === 'resync') this.resync();
        break;
      }
      default: {
        const name = relayedHandler(msg.type);
        if (name) h[name]?.(msg);
        break;
      }
    }
  }

  resync() {
    if (startResync(this.state)) this.rawSend({ type: 'resync' });
  }

  /**
   * @param {object} obj
   * @returns {boolean} whether it went out (false: no open socket)
   */
  rawSend(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /**
   * @param {object} obj
   * @returns {boolean}
   */
  send(obj) {
    return this.rawSend(obj);
  }

  /**
   * Sends a game action; returns its client id, or null when offline.
   * @param {object} action
   * @returns {string | null}
   */
  action(action) {
    const id = newActionId();
    return this.rawSend({ type: 'action', id, action }) ? id : null;
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    if (this.ws) {
      try { this.ws.close(1000); } catch { /* already closing */ }
    }
    this.ws = null;
  }
}
