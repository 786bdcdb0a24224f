// What the Demon table says about the round around the cards, decided from the state
// the server sent: whether the vote to end deserves attention, who is watching and
// what a spectator can expect, and how a match ended (a tie is not two winners). Pure:
// plain data in, plain data out (tests/js/round-status.test.mjs).

// Whose votes end the round, as the server counts them (docs/protocol.md, rule 17: bots
// follow the people): the people still in the round; at a table with no person in it,
// or once its person let the bots finish, every seat still in it. {votes, voters}.
/** @typedef {import('./protocol-types.js').RoomState} RoomState */

/**
 * @param {RoomState | null | undefined} state
 * @returns {{votes: number, voters: number}}
 */
export function voteCount(state) {
  const r = state && state.round;
  if (!r) return { votes: 0, voters: 0 };
  const absent = new Set(r.absent || []);
  const inRound = (/** @type {RoomState} */ (state).players || []).filter((p) => p.seat !== null && p.seat !== undefined && !absent.has(p.seat));
  const people = inRound.filter((p) => !p.bot);
  const voters = people.length && !r.bots_finish ? people : inRound;
  const cast = new Set(r.votes || []);
  return { votes: voters.filter((p) => p.seat !== null && cast.has(p.seat)).length, voters: voters.length };
}

// Which choice the table offers this seat about ending the round: 'finishing' (its
// person let the bots finish), 'alone' (every other seat in the round is a bot: end it
// now, or let the bots finish), 'vote' (other people decide with it), or null.
/**
 * @param {RoomState | null | undefined} state
 * @param {number | null | undefined} seat
 * @returns {'finishing' | 'alone' | 'vote' | null}
 */
export function endChoice(state, seat) {
  const r = state && state.round;
  if (!r || seat === null || seat === undefined || /** @type {RoomState} */ (state).phase !== 'playing') return null;
  if (r.bots_finish) return 'finishing';
  const absent = new Set(r.absent || []);
  const others = (/** @type {RoomState} */ (state).players || []).filter((p) => p.seat !== null && p.seat !== undefined
    && p.seat !== seat && !absent.has(p.seat));
  return others.length && others.every((p) => p.bot) ? 'alone' : 'vote';
}

// The vote to end the round matters once this seat is known to be stuck (the server
// says so only after the seat has seen its whole stock) or once somebody whose vote
// counts has voted (the others' agreement is then what the round waits for). Before
// that the button stays small and quiet: a race has just begun, nobody is stuck yet.
/**
 * @param {RoomState | null | undefined} state
 * @param {number | null | undefined} seat
 * @returns {boolean}
 */
export function voteMatters(state, seat) {
  const r = state && state.round;
  if (!r || seat === null || seat === undefined) return false;
  return voteCount(state).votes > 0 || isStuck(state, seat);
}

/**
 * @param {RoomState | null | undefined} state
 * @param {number | null | undefined} seat
 * @returns {boolean}
 */
export function isStuck(state, seat) {
  const r = state && state.round;
  return Boolean(r) && typeof seat === 'number' && (/** @type {number[]} */ ((r && r.stuck) || [])).includes(seat);
}

// The spectators still in the room (the server removes those who left).
/**
 * @param {RoomState | null | undefined} state
 * @returns {import('./protocol-types.js').Spectator[]}
 */
export function watchersOf(state) {
  return (state && Array.isArray(state.spectators) ? state.spectators : []);
}

// A spectator's prospect: 'next' (a free seat waits: dealt in at the next round),
// 'watch' (the table is full), or null (not a spectator, or nothing said).
/**
 * @param {RoomState | null | undefined} state
 * @param {string | null | undefined} you
 * @returns {'next' | 'watch' | null}
 */
export function spectatorFate(state, you) {
  const me = watchersOf(state).find((p) => p.id === you);
  if (!me || typeof me.next_round !== 'boolean') return null;
  return me.next_round ? 'next' : 'watch';
}

// What someone opening the room's link can expect (`GET /api/rooms/{code}`):
// 'watch' (every seat is taken), 'next' (a round is on: watch it, dealt in at the
// next), or null (a seat now: the lobby or between rounds).
/**
 * @param {{phase?: string, free_seats?: number} | null | false | undefined} summary
 * @returns {'watch' | 'next' | null}
 */
export function joinProspect(summary) {
  if (!summary || !summary.phase) return null;
  if (typeof summary.free_seats === 'number' && summary.free_seats <= 0) return 'watch';
  return summary.phase === 'playing' || summary.phase === 'countdown' ? 'next' : null;
}

// How a match ended: the ids of those with the best total, and whether they share it.
/**
 * @param {import('./protocol-types.js').RoundResult | null | undefined} result
 * @returns {{winners: string[], tie: boolean}}
 */
export function matchOutcome(result) {
  const winners = result && Array.isArray(result.winners) ? result.winners : [];
  return { winners, tie: winners.length > 1 };
}
