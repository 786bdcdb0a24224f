// A replay as the viewer holds it: every table of the round, from the deal to the end,
// made by the room's own reducer (demon/demon-model.js applyEvent) from the frames the
// server made by replaying the round's record through the engine. Pure: no DOM, no
// clock, no rule of either game (the server decided every table; this only keeps them).
// A Nerts round (`game: "nerts"`) has the same frames with Nerts seat views, and its
// stall (N13) changes every stuck seat's stock and waste at once (`applyStall`).

import { applyEvent } from '../demon/demon-model.js';

export { SPEEDS, stepTo } from './replay-steps.js';

/** @typedef {import('../demon/protocol-types.js').RoomState} RoomState */
/** @typedef {import('../demon/protocol-types.js').Round} Round */
/** @typedef {import('../demon/protocol-types.js').Player} Player */

/**
 * A player of a replayed round: the id and card-back colour the table's panels read, the
 * seat, the name, the bot level (null for a person) and the round's score.
 * @typedef {{ id: string, colour: number, seat: number, name: string, bot: Player['bot'], score: number }} ReplayPlayer
 */

/**
 * One seat of a Nerts round, as everybody sees it (docs/protocol.md, "Round view").
 * @typedef {object} NertsSeatView
 * @property {number} seat
 * @property {string | null} nerts_top
 * @property {number} nerts_count
 * @property {string[][]} work four piles, bottom card first
 * @property {number} stock
 * @property {string[]} waste the cards on view, top last
 * @property {number} waste_count
 * @property {number} [on_foundations]
 * @property {boolean} [absent]
 */

/**
 * One entry of the round as the server replayed it (app/records/frames.py): a move (the
 * room's own move event, with the action), an absence, or the finish; `at` is seconds
 * after the signal when the record kept a time.
 * @typedef {(import('../demon/protocol-types.js').MoveEvent & { action: import('../demon/protocol-types.js').DemonAction, at?: number | null })
 *   | { kind: 'absent', absent: number[], stuck: number[], at?: number | null }
 *   | { kind: 'finish', reason: string, at?: number | null }
 *   | { kind: 'stall', seats: number[], stock_counts: number[], at?: number | null }} ReplayFrame
 */

/**
 * A round in the list of a room's rounds (GET /api/replays?code=).
 * @typedef {{ id: string, code: string, round_no: number, finished_at: number, players: ReplayPlayer[], shared: boolean, bots_finish?: boolean }} ReplaySummary
 */

/**
 * A round to watch (GET /api/replays/{id}): the table at the signal (`initial`, the
 * room model's round), every frame, and how it ended.
 * @typedef {ReplaySummary & {
 *   game?: string,
 *   may_share: boolean,
 *   initial: Round,
 *   frames: ReplayFrame[],
 *   end: { reason: string, winner: number | null } | null,
 * }} DemonReplay
 */

// A pause in the round longer than this plays as this long (seconds of the round): a
// player who thought for a minute would otherwise hold the viewer for a minute too.
export const LONGEST_PAUSE_S = 4;

// The step an entry without a recorded time (a record from before times were kept, or
// the room's own entries such as an absence) is given after the one before it.
const UNTIMED_STEP_S = 0.5;

// tables[0] is the table at the signal, tables[i] the table after frame i - 1.
/**
 * @param {DemonReplay} replay
 * @returns {Round[]} the rounds, as the room model makes them
 */
export function buildTables(replay) {
  /** @type {RoomState} */
  let state = { phase: 'replay', round: replay.initial };
  const tables = [replay.initial];
  for (const frame of replay.frames) {
    if (frame.kind === 'move' || frame.kind === 'absent') state = applyEvent(state, frame);
    // the reducer keeps a round once it has one: every event here is a round's
    let round = /** @type {Round} */ (state.round);
    // a Nerts stall: its own frame, or inside the move that caused it
    const stall = frame.kind === 'stall' ? frame : frame.kind === 'move' ? stalledIn(frame.engine) : null;
    if (stall) {
      round = applyStall(round, stall.seats, stall.stock_counts);
      state = { ...state, round };
    }
    tables.push(round);
  }
  return tables;
}

// A Nerts move's `stalled` engine event ({seat: null, seats, stock_counts}), if it has one.
/**
 * @param {readonly unknown[] | undefined} engine
 * @returns {{ seats: number[], stock_counts: number[] } | null}
 */
function stalledIn(engine) {
  const found = (engine || []).find((e) => Boolean(e) && /** @type {{ type?: unknown }} */ (e).type === 'stalled');
  return found ? /** @type {{ seats: number[], stock_counts: number[] }} */ (found) : null;
}

// The stall (Nerts, N13): each listed seat's waste went under its stock, whose count is
// now `stockCounts[i]`; the round is stalled until the next foundation play.
/**
 * @param {Round} round
 * @param {readonly number[]} seats
 * @param {readonly number[]} stockCounts
 * @returns {Round}
 */
export function applyStall(round, seats, stockCounts) {
  if (!Array.isArray(seats) || !Array.isArray(stockCounts)) return round;
  const views = /** @type {NertsSeatView[]} */ (/** @type {unknown} */ (round.seats)).slice();
  seats.forEach((seat, i) => {
    if (views[seat] && typeof stockCounts[i] === 'number') {
      views[seat] = { ...views[seat], waste: [], waste_count: 0, stock: stockCounts[i] };
    }
  });
  return /** @type {Round} */ ({ ...round, seats: /** @type {unknown} */ (views), stalled: true });
}

// Seconds after the signal of each table (tables[0] at 0), never going back.
/**
 * @param {readonly ReplayFrame[]} frames
 * @returns {number[]}
 */
export function tableTimes(frames) {
  const times = [0];
  for (const frame of frames) {
    const last = times[times.length - 1];
    const at = typeof frame.at === 'number' ? frame.at : last + UNTIMED_STEP_S;
    times.push(Math.max(last, at));
  }
  return times;
}

// How long the viewer waits on table i before showing table i + 1, in milliseconds.
/**
 * @param {readonly number[]} times
 * @param {number} i
 * @param {number} speed
 * @returns {number | null}
 */
export function delayMs(times, i, speed) {
  if (i + 1 >= times.length) return null;
  const gap = Math.min(LONGEST_PAUSE_S, Math.max(0, times[i + 1] - times[i]));
  return (gap * 1000) / speed;
}

// The foundation plays of frame i - 1 (the ones that make table i), for the flights.
/**
 * @param {DemonReplay} replay
 * @param {number} i
 * @returns {{ pile: number, seat: number | undefined, src: 'waste' | number | undefined }[]}
 */
export function playsInto(replay, i) {
  const frame = replay.frames[i - 1];
  if (!frame || frame.kind !== 'move') return [];
  return frame.foundations.map((f) => ({ pile: f.pile, seat: frame.seat, src: frame.action.src }));
}

// The players as the table's panels read a room's state (demon-model.js, demon-panels.js).
/**
 * @param {DemonReplay} replay
 * @param {Round} round
 * @returns {RoomState & { players: Player[] }}
 */
export function viewerState(replay, round) {
  return {
    phase: 'replay', round, round_no: replay.round_no,
    players: replay.players.map((p) => ({ ...p, connected: true, left: false, absent: false })),
  };
}
