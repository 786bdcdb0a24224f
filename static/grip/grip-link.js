// The Devil's Grip page's line to the server (issue 24): the operations the page already
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
//   reachable(bool)        the server could (not) be reached

import { api } from '../common/api.js';

export const MAX_OPS_PER_REQUEST = 150; // the server takes 200; a body stays far under 16 KB
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

export function createLink({ save, on }) {
  let saved = null; // the object described above
  let inFlight = null; // the ops of the request on its way
  let online = true;
  let failures = 0;
  let retryTimer = null;
  let waiters = []; // promises of `idle()`
  let closed = false;

  function persist() { save(saved); }

  function reachable(yes) {
    if (yes) failures = 0;
    if (online !== yes) { online = yes; on.reachable(yes); }
  }

  function retryLater() {
    if (retryTimer || closed) return;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    retryTimer = setTimeout(() => { retryTimer = null; pump(); }, wait);
  }

  function settleWaiters() {
    if (inFlight || (saved && saved.pending.length && online)) return;
    const done = waiters;
    waiters = [];
    done.forEach((resolve) => resolve(Boolean(saved && !saved.pending.length)));
  }

  // Creates the game on the server (a game started offline), then sends batches.
  async function pump() {
    if (closed || inFlight || !saved || (!saved.pending.length && saved.id)) { settleWaiters(); return; }
    const game = saved;
    if (!game.id) {
      inFlight = [];
      try {
        const answer = await api.newGrip({ number: game.number, passes: game.passes });
        if (saved === game) {
          game.id = answer.id;
          game.token = answer.token;
          game.seq = 0;
          persist();
          reachable(true);
          on.created(answer);
        }
      } catch (err) {
        failed(err);
        inFlight = null;
        return;
      }
      inFlight = null;
      pump();
      return;
    }
    const ops = game.pending.slice(0, MAX_OPS_PER_REQUEST);
    inFlight = ops;
    try {
      const answer = await api.gripMoves(game.id, game.token, { base: game.seq, ops });
      inFlight = null;
      reachable(true);
      if (saved !== game || closed) return;
      game.pending = game.pending.slice(ops.length);
      take(game, answer);
      on.acked(answer);
    } catch (err) {
      inFlight = null;
      if (saved !== game || closed) return;
      if (err.status === 409 && err.data && err.data.game) {
        const server = err.data.game;
        reachable(true);
        if (err.data.code === 'stale' && server.seq === game.seq + ops.length && on.matches(server, ops)) {
          // the earlier answer was lost, not the batch: the server has exactly these ops
          game.pending = game.pending.slice(ops.length);
          take(game, server);
          on.acked(server);
        } else {
          game.pending = [];
          take(game, server);
          on.refused(server, err.detail || '');
        }
      } else if (err.status === 404) {
        reachable(true);
        on.lost(err.detail || '');
        return;
      } else {
        failed(err);
        return;
      }
    }
    pump();
  }

  function take(game, answer) {
    game.seq = answer.seq;
    game.acked = { number: answer.number, passes: answer.passes, actions: answer.actions, redo: answer.redo,
      used_undo: answer.used_undo };
    persist();
  }

  function failed(err) {
    // no connection, the server down or busy: keep the ops, try again later
    if (err.status === 0 || err.status >= 500 || err.status === 429) reachable(false);
    retryLater();
    settleWaiters();
  }

  const onOnline = () => { failures = 0; if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; } pump(); };
  window.addEventListener('online', onOnline);

  return {
    /** Start following a game (a saved one, or one just dealt). */
    follow(game) {
      saved = game;
      inFlight = null;
      persist();
      pump();
    },
    current: () => saved,
    /** One operation the page has just played. */
    push(op) {
      if (!saved) return;
      saved.pending.push(op);
      persist();
      if (online || !retryTimer) pump();
    },
    /** Whether the server has every operation (true) or not yet (false), once settled:
     *  the request in flight answered, or the server unreachable. */
    idle() {
      return new Promise((resolve) => { waiters.push(resolve); pump(); });
    },
    online: () => online,
    /** Reported by a request the page made on its own (a hint, par). */
    reachable,
    /** Try now (a button, or the page coming back). */
    retry: onOnline,
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      window.removeEventListener('online', onOnline);
    },
  };
}
