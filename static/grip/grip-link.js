// The Devil's Grip page's line to the server (moves played on the page first): the operations the page already
// played go out in order, in batches, one request in flight at a time
// (POST /api/grip/{id}/moves {base, ops}); the server replays them and answers with its
// record and count (`seq`). The page never waits for it.
//
// What the link keeps, and saves in the browser after every change (so a game played
// offline survives a reload and is sent later):
//   {id, token, daily, number, passes, seq, acked, pending}
// `acked` is the server's record as last acknowledged ({number, passes, actions, redo,
// used_undo}), `pending` the operations played since, not yet acknowledged. A game
// started with no connection has no id: it is created on the server (same deal number
// and pass limit) when the server is reachable, and its operations follow from seq 0:
// the server's replay is its verification.
//
// The answers it reports (`on`):
//   created(answer)        a game started on the page now exists on the server
//   acked(answer)          a batch was replayed; answer = the server's sync answer
//   refused(answer, why)   the server refused (an illegal operation, or its record is
//                          not the page's): the page must go back to `answer`
//   lost(why)              the server no longer has the game
//   reachable(bool)        the server could (not) be reached
//
// What to send next, the backoff and what a refused batch means are decided in
// grip-outbox.js (pure, node-tested); this file makes the requests and holds the timers.

import { api } from '../common/api.js';
import { createOutbox, nextRequest, startRequest, endRequest, idleAnswer, setReachable, nextRetryWait, isUnreachable, adoptCreated,
  acknowledge, giveUpPending, batchFailure, answerWasLost } from './sync/grip-outbox.js';

export { MAX_OPS_PER_REQUEST } from './sync/grip-outbox.js';

/** @typedef {import('./sync/grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('./sync/grip-sync-types.js').RequestFailure} RequestFailure */
/** @typedef {import('./grip-local.js').GripOp} GripOp */
/** @typedef {import('./grip-model.js').GripAnswer} GripAnswer */
/** @typedef {import('./grip-model.js').GripSyncAnswer} GripSyncAnswer */

/**
 * What the link tells the page.
 * @typedef {object} LinkEvents
 * @property {(answer: GripAnswer) => void} created the answer to POST /api/grip
 * @property {(answer: GripSyncAnswer) => void} acked
 * @property {(answer: GripSyncAnswer, why: string) => void} refused
 * @property {(why: string) => void} lost
 * @property {(yes: boolean) => void} reachable
 * @property {(server: GripSyncAnswer, ops: GripOp[]) => boolean} matches whether the server's
 *   record is the acknowledged one after `ops` (a `stale` answer whose batch did arrive)
 */

/**
 * @typedef {ReturnType<typeof createLink>} Link
 */

/**
 * @param {{save: (saved: SavedGame | null) => void, on: LinkEvents}} options
 */
export function createLink({ save, on }) {
  const box = createOutbox(); // the game followed, the request on its way, reachability
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retryTimer = null;
  /** @type {((sent: boolean) => void)[]} */
  let waiters = []; // promises of `idle()`

  function persist() { save(box.saved); }

  /** @param {boolean} yes */
  function reachable(yes) {
    if (setReachable(box, yes)) on.reachable(yes);
  }

  function retryLater() {
    if (retryTimer || box.closed) return;
    const wait = nextRetryWait(box);
    retryTimer = setTimeout(() => { retryTimer = null; pump(); }, wait);
  }

  function settleWaiters() {
    const sent = idleAnswer(box);
    if (sent === null) return;
    const done = waiters;
    waiters = [];
    done.forEach((resolve) => resolve(sent));
  }

  // Creates the game on the server (a game started offline), then sends batches.
  async function pump() {
    const next = nextRequest(box);
    if (!next) { settleWaiters(); return; }
    const game = next.game;
    if (next.kind === 'create') {
      const creating = startRequest(box, []);
      try {
        const answer = await api.newGrip({ number: game.number, passes: game.passes });
        if (box.saved === game) {
          adoptCreated(game, answer);
          persist();
          reachable(true);
          on.created(answer);
        }
      } catch (err) {
        failed(/** @type {RequestFailure} */ (err));
        endRequest(box, creating);
        return;
      }
      endRequest(box, creating);
      pump();
      return;
    }
    const ops = startRequest(box, next.ops);
    try {
      // a batch is only sent for a game the server has (nextRequest): its id is set
      const id = /** @type {string} */ (game.id);
      const answer = await api.gripMoves(id, game.token, { base: game.seq, ops });
      endRequest(box, ops);
      reachable(true);
      if (box.saved !== game || box.closed) return;
      acknowledge(game, ops.length, answer);
      persist();
      on.acked(answer);
    } catch (caught) {
      endRequest(box, ops);
      if (box.saved !== game || box.closed) return;
      const err = /** @type {RequestFailure} */ (caught);
      const failure = batchFailure(err);
      if (failure.kind === 'conflict') {
        reachable(true);
        if (answerWasLost(failure, game, ops, on.matches)) {
          // the earlier answer was lost, not the batch: the server has exactly these ops
          acknowledge(game, ops.length, failure.server);
          persist();
          on.acked(failure.server);
        } else {
          giveUpPending(game, failure.server);
          persist();
          on.refused(failure.server, failure.reason);
        }
      } else if (failure.kind === 'lost') {
        reachable(true);
        on.lost(failure.reason);
        return;
      } else {
        failed(err);
        return;
      }
    }
    pump();
  }

  /** @param {RequestFailure} err */
  function failed(err) {
    // no connection, the server down or busy: keep the ops, try again later
    if (isUnreachable(err.status)) reachable(false);
    retryLater();
    settleWaiters();
  }

  const onOnline = () => { box.failures = 0; if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; } pump(); };
  window.addEventListener('online', onOnline);

  return {
    /** Start following a game (a saved one, or one just dealt).
     *  @param {SavedGame} game */
    follow(game) {
      box.saved = game;
      box.inFlight = null;
      persist();
      pump();
    },
    current: () => box.saved,
    /** One operation the page has just played.
     *  @param {GripOp} op */
    push(op) {
      if (!box.saved) return;
      box.saved.pending.push(op);
      persist();
      if (box.online || !retryTimer) pump();
    },
    /** Whether the server has every operation (true) or not yet (false), once settled:
     *  the request in flight answered, or the server unreachable.
     *  @returns {Promise<boolean>} */
    idle() {
      return new Promise((resolve) => { waiters.push(resolve); pump(); });
    },
    online: () => box.online,
    /** Reported by a request the page made on its own (a hint, par). */
    reachable,
    /** Try now (a button, or the page coming back). */
    retry: onOnline,
    close() {
      box.closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
    },
  };
}
