// The Demon room page's model, pure: the seat this browser holds, the room's public
// state (demon-model.js applies the events to it), this seat's legal actions, and the
// local clocks of the countdown and the round (performance.now() deadlines).

import { applyEvent, seatOf } from './demon-model.js';

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
export function deadlines(state, now) {
  return {
    countdownEnd: state.phase === 'countdown' && typeof state.countdown_ends_in_ms === 'number'
      ? now + state.countdown_ends_in_ms : null,
    timeEnd: state.phase === 'playing' && typeof state.time_left_ms === 'number' ? now + state.time_left_ms : null,
  };
}

// A state that replaces the model's (a snapshot, or the cache of an earlier visit).
export function adoptState(model, state, now) {
  Object.assign(model, { state }, deadlines(state, now));
  syncSeat(model);
}

// An event: the new state, the seat, and the clocks the event starts or stops.
export function adoptEvent(model, event, now) {
  model.state = applyEvent(model.state, event);
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
      if (model.state.phase !== 'countdown') model.countdownEnd = null;
      if (model.state.phase !== 'playing') model.timeEnd = null;
      break;
    default:
      break;
  }
}

// A `legal` message; one older than the legal actions held is dropped. True when taken.
export function adoptLegal(model, msg) {
  if (typeof msg.v === 'number' && msg.v < model.legalV) return false;
  model.legal = Array.isArray(msg.actions) ? msg.actions : [];
  model.legalV = typeof msg.v === 'number' ? msg.v : model.legalV;
  return true;
}

// The seat follows the players list: a spectator is seated when a round starts, and
// seats move up when someone leaves the lobby.
export function syncSeat(model) {
  if (model.state && model.you) model.seat = seatOf(model.state, model.you);
}

// Which view the room shows: nothing yet, the lobby, or the table.
export function viewKind(state) {
  if (!state) return null;
  return state.phase !== 'lobby' && state.round ? 'table' : 'lobby';
}
