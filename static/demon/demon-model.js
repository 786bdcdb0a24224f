// The Demon room's public state as the browser holds it, and the reducer that applies
// the server's events to it (docs/protocol.md, "Events"). Pure: no DOM, no clock. It
// copies what the server says and never decides a rule.
//
// applyEvent never changes the state it is given: it returns a new state that shares
// every part the event did not touch (a move makes a new `round`, a new `seats` array
// and one new seat; the other seats, the players and the history are the old objects).
// The parts it takes from the event are the event's own objects, which nothing changes
// after parsing.

/** @typedef {import('./protocol-types.js').RoomState} RoomState */
/** @typedef {import('./protocol-types.js').Player} Player */
/** @typedef {import('./protocol-types.js').Spectator} Spectator */
/** @typedef {import('./protocol-types.js').Round} Round */
/** @typedef {import('./protocol-types.js').DemonEvent} DemonEvent */
/** @typedef {import('./protocol-types.js').MoveEvent} MoveEvent */
/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */

/**
 * @param {RoomState | null | undefined} state
 * @param {DemonEvent} event
 * @returns {RoomState}
 */
export function applyEvent(state, event) {
  /** @type {RoomState} */
  const base = state || {};
  switch (event.kind) {
    case 'room':
      // every key it carries replaces ours; `round` only comes with a rematch, as null
      return { ...base, ...event.state };
    case 'countdown':
      return { ...base, phase: 'countdown', countdown_ends_in_ms: event.ends_in_ms };
    case 'round_started':
      return { ...base, phase: 'playing', round: event.round, round_no: event.round_no,
        time_left_ms: event.time_left_ms ?? null, countdown_ends_in_ms: null, result: null };
    case 'move':
      return base.round ? { ...base, round: applyMove(base.round, event) } : base;
    case 'absent':
      // a seat away past the grace period is out of the round
      return base.round ? { ...base, round: { ...base.round, absent: event.absent, stuck: event.stuck } } : base;
    case 'votes': {
      const players = (base.players || []).map((p) => {
        const voted = p.seat !== null && event.votes.includes(p.seat);
        return p.voted === voted ? p : { ...p, voted };
      });
      return { ...base, players,
        round: base.round ? { ...base.round, votes: event.votes, bots_finish: Boolean(event.bots_finish) } : base.round };
    }
    case 'stall':
      return base.round ? { ...base, round: applyStall(base.round, event) } : base;
    case 'round_ended':
      return { ...base, result: event.result, phase: event.result.match_over ? 'match_over' : 'round_over' };
    default:
      return base; // an event kind this client does not know: nothing to show
  }
}

// A move replaces the mover's seat and sets the foundation piles it changed.
/**
 * @param {Round} round
 * @param {MoveEvent} event
 * @returns {Round}
 */
function applyMove(round, event) {
  const seats = round.seats.slice();
  seats[event.seat] = event.seat_view;
  let foundations = round.foundations;
  if (event.foundations.length) {
    foundations = foundations.slice();
    for (const f of event.foundations) {
      while (foundations.length < f.pile) foundations.push(null);
      foundations[f.pile] = { top: f.top, seat: f.seat, count: f.count };
    }
  }
  // (Nerts) a stall lasts until a card goes home
  const stalled = round.stalled && event.foundations.length ? { stalled: false } : null;
  return { ...round, seats, foundations, stuck: event.stuck, cards_home: event.cards_home, ...stalled };
}

// Nerts' stall: each listed seat's waste went under its stock (docs/protocol.md).
/**
 * @param {Round} round
 * @param {{seats: number[], stock_counts: number[]}} event
 * @returns {Round}
 */
function applyStall(round, event) {
  const seats = round.seats.slice();
  event.seats.forEach((s, i) => {
    if (seats[s]) seats[s] = { ...seats[s], waste: [], waste_count: 0, stock: event.stock_counts[i] ?? 0 };
  });
  return { ...round, seats, stalled: true };
}

// The foundation plays of a move event, as [{card, pile}]: its engine's `played` events.
/**
 * @param {MoveEvent} event
 * @returns {{card: string, pile: number}[]}
 */
export function playsOf(event) {
  return (event.engine || []).filter((e) => e.type === 'played').map((e) => ({ card: /** @type {string} */ (e.card), pile: /** @type {number} */ (e.pile) }));
}

// Players are known by their id ("p3"); `seat` is their place in the current round.
/**
 * @param {RoomState | null | undefined} state
 * @param {number | null | undefined} seat
 * @returns {Player | null}
 */
export function playerAtSeat(state, seat) {
  return (state && state.players || []).find((p) => p.seat === seat) || null;
}

/**
 * @param {RoomState | null | undefined} state
 * @param {string | null | undefined} id
 * @returns {Player | Spectator | null}
 */
export function playerById(state, id) {
  if (!state || id === null || id === undefined) return null;
  return (state.players || []).find((p) => p.id === id)
    || (state.spectators || []).find((p) => p.id === id) || null;
}

// A player's name as the page shows it. The server names bots "Bot 1", "Bot 2", ... in
// its own words (app/demon/room/seating.py); with `t` (the page's translate) a bot's name
// is given in the page's language. A person's name is shown as they typed it.
/**
 * @param {{name: string, bot?: string | null} | null | undefined} player
 * @param {Translate | null} [t]
 * @returns {string}
 */
export function shownName(player, t = null) {
  if (!player) return '';
  const number = t && player.bot ? /^Bot (\d+)$/.exec(player.name || '') : null;
  return number && t ? t('bots.name', { n: number[1] }) : player.name;
}

/**
 * @param {RoomState | null | undefined} state
 * @param {number} seat
 * @param {Translate | null} [t]
 * @returns {string}
 */
export function playerName(state, seat, t = null) {
  const player = playerAtSeat(state, seat);
  return player ? shownName(player, t) : `#${seat + 1}`;
}

// The card-back colour of a seat: its player's colour index (0–7, kept for the life of
// the room); the seat number for a seat nobody holds.
/**
 * @param {RoomState | null | undefined} state
 * @param {number} seat
 * @returns {number}
 */
export function colourOfSeat(state, seat) {
  const player = playerAtSeat(state, seat);
  return player ? player.colour : seat;
}

/** @param {RoomState | null | undefined} state */
export function spectatorCount(state) {
  return state && state.spectators ? state.spectators.length : 0;
}

// Whether the player `you` (an id) is the host.
/**
 * @param {RoomState | null | undefined} state
 * @param {string | null | undefined} you
 */
export function isHost(state, you) {
  return Boolean(state && you !== null && you !== undefined && state.host === you);
}

/**
 * @param {RoomState | null | undefined} state
 * @returns {(Player & {seat: number})[]}
 */
export function seatedPlayers(state) {
  return (state && state.players || []).filter(isSeated)
    .sort((a, b) => a.seat - b.seat);
}

/**
 * @param {Player} p
 * @returns {p is Player & {seat: number}}
 */
function isSeated(p) {
  return !p.left && p.seat !== null && p.seat !== undefined;
}

// The seat this browser plays: the seat of its player id, or null (a spectator, or a
// player who left). A spectator is seated when a round starts, and seats move up when
// someone leaves the lobby, so this is read from the players list after every change.
/**
 * @param {RoomState | null | undefined} state
 * @param {string | null | undefined} you
 * @returns {number | null}
 */
export function seatOf(state, you) {
  if (!state || !you) return null;
  const me = (state.players || []).find((p) => p.id === you);
  return me && !me.left && me.seat !== undefined ? me.seat : null;
}
