// Applying the server's Demon events to the client's copy of the public state. This
// is bookkeeping only: it copies what the server says, it never decides a rule.

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

export function applyEvent(state, event) {
  const next = clone(state) || {};
  switch (event.kind) {
    case 'room': {
      for (const [key, value] of Object.entries(event.state || {})) {
        if (key !== 'round') next[key] = clone(value);
      }
      break;
    }
    case 'countdown':
      next.phase = 'countdown';
      next.countdown_ends_in_ms = event.ends_in_ms;
      break;
    case 'round_started':
      next.round = clone(event.round);
      if (event.round_no !== undefined) next.round_no = event.round_no;
      next.time_left_ms = event.time_left_ms ?? null;
      next.countdown_ends_in_ms = null;
      next.phase = 'playing';
      next.result = null;
      break;
    case 'move': {
      const round = next.round;
      if (!round) break;
      if (event.seat_view) round.seats[event.seat] = clone(event.seat_view);
      for (const f of event.foundations || []) {
        const pile = { top: f.top, seat: f.seat, count: f.count };
        while (round.foundations.length < f.pile) round.foundations.push(null);
        round.foundations[f.pile] = pile;
      }
      if (event.stuck) round.stuck = clone(event.stuck);
      if (event.cards_home) round.cards_home = clone(event.cards_home);
      break;
    }
    case 'absent':
      // a seat away past the grace period is out of the round
      if (next.round) {
        next.round.absent = clone(event.absent || []);
        if (event.stuck) next.round.stuck = clone(event.stuck);
      }
      break;
    case 'votes':
      if (next.round) next.round.votes = clone(event.votes);
      for (const p of next.players || []) p.voted = (event.votes || []).includes(p.seat);
      break;
    case 'round_ended':
      next.result = clone(event.result);
      if (event.result) {
        next.phase = event.result.match_over ? 'match_over' : 'round_over';
        if (event.result.totals) next.totals = clone(event.result.totals);
      }
      break;
    default:
      break; // an event kind this client does not know: nothing to show
  }
  return next;
}

// The foundation plays one move event made, as [{card, pile}] — taken from the engine's
// `played` events, or else from the changed piles.
export function playsOf(event) {
  const plays = [];
  for (const e of event.engine || []) {
    const kind = e.kind || e.type;
    if (kind === 'played' && e.card) plays.push({ card: e.card, pile: e.pile });
  }
  if (!plays.length && event.action && event.action.type === 'foundation') {
    for (const f of event.foundations || []) plays.push({ card: f.top, pile: f.pile });
  }
  return plays;
}

// Players are known by their id ("p3"); `seat` is their place in the current round.
export function playerAtSeat(state, seat) {
  return (state && state.players || []).find((p) => p.seat === seat) || null;
}

export function playerById(state, id) {
  if (id === null || id === undefined) return null;
  return (state && state.players || []).find((p) => p.id === id)
    || (state && Array.isArray(state.spectators) ? state.spectators.find((p) => p.id === id) : null)
    || null;
}

export function playerName(state, seat) {
  const player = playerAtSeat(state, seat);
  return player ? player.name : `#${seat + 1}`;
}

// The card-back colour of a seat: the player's own colour index when the server gives
// one, else the seat number.
export function colourOfSeat(state, seat) {
  const player = playerAtSeat(state, seat);
  return player && typeof player.colour === 'number' ? player.colour : seat;
}

export function colourOfPlayer(player) {
  if (!player) return null;
  return typeof player.colour === 'number' ? player.colour : player.seat;
}

// A value the server keys by player id (scores, totals) — or, in the older documented
// form, an array indexed by seat.
export function byPlayer(values, player) {
  if (!values || !player) return undefined;
  if (Array.isArray(values)) return values[player.seat];
  return values[player.id];
}

export function spectatorCount(state) {
  const s = state && state.spectators;
  return Array.isArray(s) ? s.length : (typeof s === 'number' ? s : 0);
}

// Whether `you` (a player id) is the host. The host is named by player id; a seat
// number is accepted too.
export function isHost(state, you, seat) {
  if (!state || state.host === null || state.host === undefined) return false;
  if (typeof state.host === 'number') return seat !== null && state.host === seat;
  return you !== null && you !== undefined && state.host === you;
}

export function seatedPlayers(state) {
  return [...(state && state.players || [])].filter((p) => !p.left && p.seat !== null && p.seat !== undefined)
    .sort((a, b) => a.seat - b.seat);
}
