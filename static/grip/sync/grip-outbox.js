// The decisions of the Devil's Grip page's line to the server (grip-link.js), pure: which
// request goes next (create a game started offline, or send the next batch of operations),
// how long to wait before trying again, whether the page's `idle()` can be answered, and
// what a refused batch means. grip-link.js holds the timers, the requests and the
// browser's events; this module holds no clock and makes no request.

/** @typedef {import('./grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('./grip-sync-types.js').RequestFailure} RequestFailure */
/** @typedef {import('../grip-local.js').GripOp} GripOp */
/** @typedef {import('../grip-local.js').GripRecord} GripRecord */
/** @typedef {import('../grip-model.js').GripSyncAnswer} GripSyncAnswer */

export const MAX_OPS_PER_REQUEST = 150; // the server takes 200; a body stays far under 16 KB
export const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/**
 * The link's state.
 * @typedef {object} Outbox
 * @property {SavedGame | null} saved the game followed
 * @property {GripOp[] | null} inFlight the ops of the request on its way ([] while a game is created)
 * @property {boolean} online whether the server was reachable at the last answer
 * @property {number} failures failed tries in a row (the backoff's step)
 * @property {boolean} closed
 */

/** @returns {Outbox} */
export function createOutbox() {
  return { saved: null, inFlight: null, online: true, failures: 0, closed: false };
}

/**
 * The request to make now, if any: none while one is on its way, or with nothing to send.
 * @param {Outbox} box
 * @returns {null | {kind: 'create', game: SavedGame} | {kind: 'moves', game: SavedGame, ops: GripOp[]}}
 */
export function nextRequest(box) {
  const game = box.saved;
  if (box.closed || box.inFlight || !game || (!game.pending.length && game.id)) return null;
  if (!game.id) return { kind: 'create', game };
  return { kind: 'moves', game, ops: game.pending.slice(0, MAX_OPS_PER_REQUEST) };
}

/**
 * A request leaves: it is the one in flight. Returns its mark for `endRequest`: `ops`
 * itself, a new array each time (an empty one for a game being created).
 * @param {Outbox} box
 * @param {GripOp[]} ops
 * @returns {GripOp[]}
 */
export function startRequest(box, ops) {
  box.inFlight = ops;
  return ops;
}

/**
 * A request answered (or failed): nothing is in flight any more, unless the page followed
 * another game meanwhile and that game's request is the one on its way now. Clearing it
 * then would let a second request leave beside it: the new game created twice on the
 * server, its operations sent to both.
 * @param {Outbox} box
 * @param {GripOp[]} sent the mark `startRequest` returned
 */
export function endRequest(box, sent) {
  if (box.inFlight === sent) box.inFlight = null;
}

/**
 * What `idle()` answers now (whether the server has every operation), or null while that
 * is not settled: a request on its way, or operations to send and the server reachable.
 * @param {Outbox} box
 * @returns {boolean | null}
 */
export function idleAnswer(box) {
  if (box.inFlight || (box.saved && box.saved.pending.length && box.online)) return null;
  return Boolean(box.saved && !box.saved.pending.length);
}

/**
 * The server could (not) be reached. Returns whether that changed (the page is told then).
 * @param {Outbox} box
 * @param {boolean} yes
 * @returns {boolean}
 */
export function setReachable(box, yes) {
  if (yes) box.failures = 0;
  if (box.online === yes) return false;
  box.online = yes;
  return true;
}

/**
 * How long to wait before the next try, growing with each failure in a row (counted here).
 * @param {Outbox} box
 * @returns {number} milliseconds
 */
export function nextRetryWait(box) {
  const wait = RETRY_MS[Math.min(box.failures, RETRY_MS.length - 1)];
  box.failures += 1;
  return wait;
}

/**
 * No connection, the server down or busy: the server counts as unreachable.
 * @param {number} status
 * @returns {boolean}
 */
export function isUnreachable(status) {
  return status === 0 || status >= 500 || status === 429;
}

/**
 * The record part of a server answer, in the server's key order.
 * @param {GripRecord | GripSyncAnswer} answer
 * @returns {GripRecord}
 */
export function recordFrom(answer) {
  // The server's games are all dealt by number (sessions.py `new` picks one when none is
  // asked for): its `number | None` is the engine's, for games made without a number.
  const number = /** @type {number} */ (answer.number);
  return { number, passes: answer.passes, actions: answer.actions, redo: answer.redo,
    used_undo: answer.used_undo };
}

/**
 * A game started on the page now exists on the server: its operations follow from seq 0.
 * @param {SavedGame} game
 * @param {{id: string, token?: string}} answer the answer to POST /api/grip
 */
export function adoptCreated(game, answer) {
  game.id = answer.id;
  // the answer that starts a game always carries its token (shapes.py GripGameAnswer)
  game.token = /** @type {string} */ (answer.token);
  game.seq = 0;
}

/**
 * The server's record and count become the acknowledged ones.
 * @param {SavedGame} game
 * @param {GripSyncAnswer} answer
 */
export function take(game, answer) {
  game.seq = answer.seq;
  game.acked = recordFrom(answer);
}

/**
 * The first `count` pending operations were replayed, and `answer` is the server's game after them.
 * @param {SavedGame} game
 * @param {number} count
 * @param {GripSyncAnswer} answer
 */
export function acknowledge(game, count, answer) {
  game.pending = game.pending.slice(count);
  take(game, answer);
}

/**
 * The server refused the batch: nothing pending means anything, its game is the game.
 * @param {SavedGame} game
 * @param {GripSyncAnswer} answer
 */
export function giveUpPending(game, answer) {
  game.pending = [];
  take(game, answer);
}

/**
 * What a failed batch means: the server answered with its game (`conflict`), it no longer
 * has the game (`lost`), or it could not answer and the batch is tried again (`retry`).
 * @param {RequestFailure} err
 * @returns {{kind: 'conflict', server: GripSyncAnswer, code: unknown, reason: string}
 *   | {kind: 'lost', reason: string} | {kind: 'retry'}}
 */
export function batchFailure(err) {
  // a 409 from POST …/moves answers {detail, code, game}: the server's game (docs/protocol.md)
  const data = /** @type {{game?: GripSyncAnswer, code?: unknown} | null | undefined} */ (err.data);
  if (err.status === 409 && data && data.game) {
    return { kind: 'conflict', server: data.game, code: data.code, reason: reasonOf(err) };
  }
  if (err.status === 404) return { kind: 'lost', reason: reasonOf(err) };
  return { kind: 'retry' };
}

/**
 * A `stale` conflict whose server game is exactly this batch played: the earlier answer
 * was lost, not the batch. `matches(server, ops)` is the page's check that the server's
 * record is the acknowledged one after `ops`.
 * @param {{server: GripSyncAnswer, code: unknown}} conflict
 * @param {SavedGame} game
 * @param {GripOp[]} ops
 * @param {(server: GripSyncAnswer, ops: GripOp[]) => boolean} matches
 * @returns {boolean}
 */
export function answerWasLost(conflict, game, ops, matches) {
  return conflict.code === 'stale' && conflict.server.seq === game.seq + ops.length && matches(conflict.server, ops);
}

/**
 * @param {RequestFailure} err
 * @returns {string}
 */
function reasonOf(err) {
  return /** @type {string} */ (err.detail || '');
}
