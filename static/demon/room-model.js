// The Demon room page's model, pure: the seat this browser holds, the room's public
// state (demon-model.js applies the events to it), this seat's legal actions, and the
// local clocks of the countdown and the round (performance.now() deadlines).

import { applyEvent, seatOf } from './demon-model.js';

/** @typedef {import('./protocol-types.js').RoomState} RoomState */
/** @typedef {import('./protocol-types.js').DemonEvent} DemonEvent */
/** @typedef {import('./protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('./protocol-types.js').LegalMessage} LegalMessage */

/**
 * This browser's seat in a room (common/storage.js keeps it per room code).
 * @typedef {object} RoomCreds
 * @property {string} code
 * @property {string} token
 * @property {number | null} seat null for a spectator
 * @property {boolean} spectator
 * @property {string | null} [you] this browser's player id
 * @property {string} [name]
 * @property {number} [saved] when storage.js kept it
 */

/**
 * @typedef {object} RoomModel
 * @property {string} code
 * @property {RoomCreds | null} creds
 * @property {number | null} seat
 * @property {string | null} you
 * @property {RoomState | null} state
 * @property {DemonAction[]} legal
 * @property {number} legalV
 * @property {string} status the socket's: 'connecting', 'online', 'reconnecting', …
 * @property {number | null} countdownEnd
 * @property {number | null} timeEnd
 * @property {boolean} [leaving] set once this browser gives up its seat
 */

/**
 * @param {string} code
 * @param {RoomCreds | null} creds
 * @returns {RoomModel}
 */
export function createRoomModel(code, creds) {
  return {
    code,
    creds,
    seat: null,
    you: null, // this browser's player id in the room
    state: null,
    legal: [],
    legalV: -1,
    status: 'connecting',
    countdownEnd: null, // performance.now() deadline
    timeEnd: null,
  };
}

// Where the countdown and the round's clock end, for a state received at `now`.
/**
 * @param {RoomState} state
 * @param {number} now
 * @returns {{countdownEnd: number | null, timeEnd: number | null}}
 */
export function deadlines(state, now) {
  return {
    countdownEnd: state.phase === 'countdown' && typeof state.countdown_ends_in_ms === 'number'
      ? now + state.countdown_ends_in_ms : null,
    timeEnd: state.phase === 'playing' && typeof state.time_left_ms === 'number' ? now + state.time_left_ms : null,
  };
}

// A state that replaces the model's (a snapshot, or the cache of an earlier visit).
/**
 * @param {RoomModel} model
 * @param {RoomState} state
 * @param {number} now
 */
export function adoptState(model, state, now) {
  Object.assign(model, { state }, deadlines(state, now));
  syncSeat(model);
}

// An event: the new state, the seat, and the clocks the event starts or stops.
/**
 * @param {RoomModel} model
 * @param {DemonEvent} event
 * @param {number} now
 */
export function adoptEvent(model, event, now) {
  const state = applyEvent(model.state, event);
  model.state = state;
  syncSeat(model);
  switch (event.kind) {
    case 'countdown':
      model.countdownEnd = now + (event.ends_in_ms || 0);
      break;
    case 'round_started':
      model.countdownEnd = null;
      model.timeEnd = typeof event.time_left_ms === 'number' ? now + event.time_left_ms : null;
      break;
    case 'round_ended':
      model.timeEnd = null;
      break;
    case 'room':
      if (state.phase !== 'countdown') model.countdownEnd = null;
      if (state.phase !== 'playing') model.timeEnd = null;
      break;
    default:
      break;
  }
}

// A `legal` message; one older than the legal actions held is dropped. True when taken.
/**
 * @param {RoomModel} model
 * @param {LegalMessage} msg
 * @returns {boolean}
 */
export function adoptLegal(model, msg) {
  if (typeof msg.v === 'number' && msg.v < model.legalV) return false;
  model.legal = Array.isArray(msg.actions) ? msg.actions : [];
  model.legalV = typeof msg.v === 'number' ? msg.v : model.legalV;
  return true;
}

// The seat follows the players list: a spectator is seated when a round starts, and
// seats move up when someone leaves the lobby.
/** @param {RoomModel} model */
export function syncSeat(model) {
  if (model.state && model.you) model.seat = seatOf(model.state, model.you);
}

// Which view the room shows: nothing yet, the lobby, or the table.
/**
 * @param {RoomState | null} state
 * @returns {'table' | 'lobby' | null}
 */
export function viewKind(state) {
  if (!state) return null;
  return state.phase !== 'lobby' && state.round ? 'table' : 'lobby';
}
