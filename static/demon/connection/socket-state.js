// The decisions of a Demon seat's WebSocket (socket.js), pure, as docs/protocol.md
// describes them: what `hello` says, which event is applied, dropped or calls for a
// `resync`, what a close code means, and how long to wait before reconnecting. socket.js
// holds the WebSocket, the timers and the browser's events; this module holds no clock
// and no randomness of its own (both are passed in).

/** The wire's version this page speaks; a room closes an older page with OUTDATED_CODE. */
export const PROTOCOL = 2;
export const OUTDATED_CODE = 4001;

/** Closes after which the seat reconnects: going away, abnormal, restart, try again later. */
export const RECONNECT_CODES = new Set([1001, 1006, 1012, 1013]);

/**
 * Where the socket stands in the room's stream of versions.
 * @typedef {object} SocketState
 * @property {number | null} v the last version applied (null: no base state yet)
 * @property {string | number | null} epoch the server run `v` comes from (a `welcome` names it)
 * @property {boolean} resyncing a `resync` (or the first snapshot) is awaited
 * @property {boolean} welcomed the server welcomed this connection
 * @property {number} attempt reconnections since the last welcome (the backoff's step)
 */

/**
 * @param {number | null | undefined} v where a page that was here before left off
 * @param {string | number | null | undefined} epoch the server run of that version
 * @returns {SocketState}
 */
export function createSocketState(v, epoch) {
  return { v: v ?? null, epoch: epoch ?? null, resyncing: false, welcomed: false, attempt: 0 };
}

/**
 * The socket opened: the `hello` to send. With no version the server's first answer is
 * a snapshot, awaited as a resync is.
 * @param {SocketState} s
 * @param {string} token
 * @returns {{type: 'hello', token: string, v: number | null, epoch: string | number | null}}
 */
export function opened(s, token) {
  s.resyncing = s.v === null;
  return { type: 'hello', token, v: s.v, epoch: s.v === null ? null : s.epoch };
}

/**
 * A `welcome`: the backoff starts again. Returns whether to resync: a server that
 * restarted may be behind us, and our version means nothing there.
 * @param {SocketState} s
 * @param {{v?: unknown, epoch?: string | number | null}} msg
 * @returns {boolean}
 */
export function welcomed(s, msg) {
  s.attempt = 0;
  s.welcomed = true;
  s.epoch = msg.epoch ?? null;
  return s.v !== null && typeof msg.v === 'number' && msg.v < s.v;
}

/**
 * A `snapshot` replaces the whole state: its version is ours.
 * @param {SocketState} s
 * @param {number} v
 */
export function snapshotTaken(s, v) {
  s.v = v;
  s.resyncing = false;
}

/**
 * What to do with an event of version `v`: apply it when it is the next one (and take
 * its version), drop an older one (a duplicate, already applied), resync after a gap or
 * with no base state yet.
 * @param {SocketState} s
 * @param {number} v
 * @returns {'apply' | 'duplicate' | 'resync'}
 */
export function eventVerdict(s, v) {
  if (s.v === null) return 'resync';
  if (v <= s.v) return 'duplicate';
  if (v === s.v + 1) {
    s.v = v;
    return 'apply';
  }
  return 'resync';
}

/**
 * Whether to send a `resync` now: not while one is awaited.
 * @param {SocketState} s
 * @returns {boolean}
 */
export function startResync(s) {
  if (s.resyncing) return false;
  s.resyncing = true;
  return true;
}

/**
 * What a close (not asked for by the page) means: reconnect, or a status to show. 1013
 * means too far behind: the reconnection starts from a snapshot. 1008 before the welcome:
 * the room or the token is unknown; after it: this seat was opened elsewhere (another
 * tab), or flooding. 4001: this page is older than the room.
 * @param {SocketState} s
 * @param {number} code
 * @param {string} reason
 * @returns {{kind: 'reconnect'} | {kind: 'status', status: 'closed' | 'denied' | 'replaced' | 'lost' | 'outdated', detail: string | number}}
 */
export function closeOutcome(s, code, reason) {
  if (RECONNECT_CODES.has(code)) {
    if (code === 1013) s.v = null;
    return { kind: 'reconnect' };
  }
  if (code === 1000) return { kind: 'status', status: 'closed', detail: code };
  if (code === OUTDATED_CODE) return { kind: 'status', status: 'outdated', detail: reason || code };
  if (code === 1008 && !s.welcomed) return { kind: 'status', status: 'denied', detail: reason || code };
  if (code === 1008) return { kind: 'status', status: 'replaced', detail: reason || code };
  return { kind: 'status', status: 'lost', detail: code };
}

/**
 * The wait before the next reconnection, counted: doubling from 400 ms up to 10 s, and
 * spread over its upper half so that a room's seats do not all come back at once.
 * @param {SocketState} s
 * @param {number} random a number in [0, 1)
 * @returns {number} milliseconds
 */
export function nextReconnectDelay(s, random) {
  const base = Math.min(10000, 400 * 2 ** s.attempt);
  s.attempt += 1;
  return base / 2 + random * base / 2;
}

/**
 * The messages of a frame: one JSON object per line (docs/protocol.md); lines that are
 * not JSON objects are skipped.
 * @param {string} data
 * @returns {Record<string, any>[]}
 */
export function messagesOf(data) {
  /** @type {Record<string, any>[]} */
  const out = [];
  for (const line of data.split('\n')) {
    let msg;
    try { msg = JSON.parse(line); } catch { continue; }
    if (msg && typeof msg === 'object') out.push(msg);
  }
  return out;
}

/**
 * A client id for an action: the time, a counter, some randomness, at most 40 characters.
 * @param {number} now Date.now()
 * @param {number} counter this page's count of actions
 * @param {number} random a number in [0, 1)
 * @returns {string}
 */
export function actionIdOf(now, counter, random) {
  const suffix = random.toString(36).slice(2, 8);
  return `a${now.toString(36)}${counter}${suffix}`.slice(0, 40);
}

/**
 * The handler a message that is not an event goes to as it is, by its type; null for
 * `welcome`, `snapshot` and `event` (the versions decide), and for `pong` and anything newer.
 * `race_won` is heard only by the winner of a race; `emote` has no v (docs/protocol.md, "Emotes").
 * @param {unknown} type
 * @returns {'legal' | 'ack' | 'rejected' | 'error' | 'coach' | 'raceWon' | 'emote' | null}
 */
export function relayedHandler(type) {
  switch (type) {
    case 'legal': return 'legal';
    case 'ack': return 'ack';
    case 'rejected': return 'rejected';
    case 'error': return 'error';
    case 'coach': return 'coach';
    case 'race_won': return 'raceWon';
    case 'emote': return 'emote';
    default: return null;
  }
}
