// The Devil's Grip page against the server's record, pure: the page plays every move at
// once (grip-local.js) and the server replays the same operations behind it (grip-link.js).
// This module says whether the two agree, rebuilds the page's game from a saved one, and
// says what the sync line shows. page/grip-session.js acts on the answers: with nothing left to send,
// a server game that is not the page's puts the page back on the server's, with the reason.

import { fromRecord, play, recordOf, sameRecord, viewOf, current } from '../grip-local.js';
import { recordFrom } from './grip-outbox.js';

/** @typedef {import('./grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('../grip-local.js').GripRecord} GripRecord */
/** @typedef {import('../grip-local.js').GripOp} GripOp */
/** @typedef {import('../grip-local.js').LocalGame} LocalGame the page's game */
/** @typedef {import('../grip-model.js').GripSyncAnswer} GripSyncAnswer */
/** @typedef {import('../grip-model.js').SyncNote} SyncNote */

/**
 * The saved form of a game to follow (grip-link.js): `record` as the acknowledged record,
 * and whatever `extra` says (id, token, daily, seq, pending, meta).
 * @param {GripRecord} record
 * @param {Partial<SavedGame>} [extra]
 * @returns {SavedGame}
 */
export function savedGameOf(record, extra) {
  return { id: null, token: null, daily: false, seq: 0, pending: [], meta: {}, ...extra,
    number: record.number, passes: record.passes, acked: record };
}

/**
 * The page's game for a saved one: its acknowledged record, then its pending operations.
 * Should a pending operation not replay (it cannot be: they were played), the pending
 * operations are dropped (in `saved`) and the game is the one before it. Throws when the
 * record itself does not replay.
 * @param {SavedGame} saved
 * @returns {LocalGame}
 */
export function rebuild(saved) {
  let next = fromRecord(saved.acked);
  for (const pending of saved.pending) {
    try { next = play(next, pending); } catch { saved.pending = []; break; }
  }
  return next;
}

/**
 * With nothing left to send: whether the server's answer is the page's game (the same
 * record and the same view of the position).
 * @param {LocalGame} local
 * @param {GripSyncAnswer} answer
 * @returns {boolean}
 */
export function agrees(local, answer) {
  return sameRecord(recordOf(local), recordFrom(answer))
    && JSON.stringify(viewOf(current(local))) === JSON.stringify(answer.state);
}

/**
 * Whether the server's record is `acked` after `ops`: a `stale` answer whose batch did
 * arrive (grip-outbox.js). False when the operations do not replay.
 * @param {GripRecord} acked
 * @param {GripSyncAnswer} server
 * @param {GripOp[]} ops
 * @returns {boolean}
 */
export function replaysTo(acked, server, ops) {
  try {
    let trial = fromRecord(acked);
    for (const o of ops) trial = play(trial, o);
    return sameRecord(recordOf(trial), recordFrom(server));
  } catch {
    return false;
  }
}

/**
 * A game reloaded with nothing to send: whether the server's record (or count) is no
 * longer the page's.
 * @param {SavedGame} saved
 * @param {LocalGame} local
 * @param {GripSyncAnswer} answer
 * @returns {boolean}
 */
export function reloadDiffers(saved, local, answer) {
  return answer.seq !== saved.seq || !sameRecord(recordOf(local), recordFrom(answer));
}

/**
 * The sync line once the server could (not) be reached: unreachable says so; reachable
 * again clears "offline" and leaves a refusal or a loss said.
 * @param {SyncNote | null} sync
 * @param {boolean} reachable
 * @returns {SyncNote | null}
 */
export function syncWhenReachable(sync, reachable) {
  if (!reachable) return { kind: 'offline' };
  return sync && sync.kind === 'offline' ? null : sync;
}

/**
 * Whether the server has every operation of the game (and so has checked them).
 * @param {SavedGame | null} saved
 * @returns {boolean}
 */
export function isVerified(saved) {
  return Boolean(saved && saved.id && !saved.pending.length);
}
