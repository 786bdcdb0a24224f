// One WebSocket per seat, exactly as docs/protocol.md describes it:
//  * the first frame is `hello` with the token and the last version seen;
//  * an event is applied only when its v is the last v + 1; an older v is a duplicate
//    and dropped; a newer one means we missed something, so we ask for `resync`;
//  * a `snapshot` replaces the whole state;
//  * closes 1001/1006/1012/1013 reconnect with a growing delay; 1000 means we left,
//    1008 before the welcome that the token is no good (after it: the seat was opened in
//    another tab, so this one stops and offers to take it back).

const RECONNECT_CODES = new Set([1001, 1006, 1012, 1013]);
const PING_EVERY_MS = 20000;

let actionCounter = 0;

export function newActionId() {
  actionCounter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `a${Date.now().toString(36)}${actionCounter}${random}`.slice(0, 40);
}

export class RoomSocket {
  // handlers: {status(s), welcome(msg), snapshot(state, v), event(event, v), legal(msg),
  //            ack(msg), rejected(msg), error(msg), emote(msg)}
  // `v` and `epoch`: where a page that was here before left off (the version, and the
  // server run it came from, which a `welcome` names); null for a fresh start.
  constructor(code, token, v, handlers, epoch = null) {
    this.code = code;
    this.token = token;
    this.v = v ?? null;
    this.epoch = epoch ?? null;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pingTimer = null;
    this.closedByUs = false;
    this.resyncing = false;
    this.status = 'connecting';
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && this.status === 'reconnecting') this.reconnectNow();
    };
    this.onOnline = () => { if (this.status === 'reconnecting') this.reconnectNow(); };
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

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
    this.welcomed = false;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.resyncing = this.v === null;
      this.rawSend({ type: 'hello', token: this.token, v: this.v, epoch: this.v === null ? null : this.epoch });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.rawSend({ type: 'ping' }), PING_EVERY_MS);
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.ws || typeof e.data !== 'string') return;
      // A frame carries one or more messages, one JSON object per line (docs/protocol.md).
      for (const line of e.data.split('\n')) {
        if (ws !== this.ws) return; // a message may have closed this socket
        let msg;
        try { msg = JSON.parse(line); } catch { continue; }
        if (msg && typeof msg === 'object') this.receive(msg);
      }
    });
    ws.addEventListener('close', (e) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.closedByUs) return;
      if (RECONNECT_CODES.has(e.code)) {
        if (e.code === 1013) this.v = null; // too far behind: start from a snapshot
        this.scheduleReconnect();
      } else if (e.code === 1000) {
        this.setStatus('closed', e.code);
      } else if (e.code === 1008 && !this.welcomed) {
        // refused at hello: the room or the token is unknown
        this.setStatus('denied', e.reason || e.code);
      } else if (e.code === 1008) {
        // after a welcome: this seat was opened elsewhere (another tab), or flooding
        this.setStatus('replaced', e.reason || e.code);
      } else {
        this.setStatus('lost', e.code);
      }
    });
  }

  scheduleReconnect() {
    this.setStatus('reconnecting');
    const base = Math.min(10000, 400 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * base / 2;
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    this.connect();
  }

  receive(msg) {
    const h = this.handlers;
    switch (msg.type) {
      case 'welcome':
        this.attempt = 0;
        this.welcomed = true;
        this.epoch = msg.epoch ?? null;
        this.setStatus('online');
        if (h.welcome) h.welcome(msg);
        // a server that restarted may be behind us: our version means nothing there
        if (this.v !== null && typeof msg.v === 'number' && msg.v < this.v) this.resync();
        break;
      case 'snapshot':
        this.v = msg.v;
        this.resyncing = false;
        h.snapshot(msg.state, msg.v);
        break;
      case 'event':
        if (this.v === null) {
          this.resync(); // no base state yet: wait for a snapshot
        } else if (msg.v <= this.v) {
          // a duplicate: already applied
        } else if (msg.v === this.v + 1) {
          this.v = msg.v;
          h.event(msg.event, msg.v);
        } else {
          this.resync();
        }
        break;
      case 'legal':
        if (h.legal) h.legal(msg);
        break;
      case 'ack':
        if (h.ack) h.ack(msg);
        break;
      case 'rejected':
        if (h.rejected) h.rejected(msg);
        break;
      case 'error':
        if (h.error) h.error(msg);
        break;
      case 'coach':
        if (h.coach) h.coach(msg);
        break;
      case 'race_won': // not an event either: only the winner of a race hears it
        if (h.raceWon) h.raceWon(msg);
        break;
      case 'emote': // not an event: no v (docs/protocol.md, "Emotes")
        if (h.emote) h.emote(msg);
        break;
      default:
        break; // pong and anything newer
    }
  }

  resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    this.rawSend({ type: 'resync' });
  }

  rawSend(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  send(obj) {
    return this.rawSend(obj);
  }

  // Sends a game action; returns its client id, or null when offline.
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
