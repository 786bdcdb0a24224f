// node --test: the Demon model (static/demon/demon-model.js). Events are written in the shapes
// of docs/protocol.md ("Events"); every input is frozen, so a reducer that changed its
// input would throw here instead of passing.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, playsOf, playerById, playerName, shownName, colourOfSeat, isHost, seatedPlayers,
  seatOf, spectatorCount } from '../../static/demon/demon-model.js';

function freeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

const seatView = (seat, top) => ({ seat, tableau: [{ down: 2, up: [top] }], stock: 20, waste: ['4D'], waste_count: 1 });

function state() {
  return freeze({
    code: 'KXWPRTM', phase: 'playing', host: 'p1',
    options: { rounds: 3, time_limit_s: null, max_players: 8 },
    players: [
      { id: 'p1', seat: 0, name: 'Ann', connected: true, left: false, absent: false, voted: false, total: 0, colour: 3, bot: null },
      { id: 'p2', seat: 1, name: 'Bob', connected: true, left: false, absent: false, voted: false, total: 0, colour: 5, bot: 'easy' },
    ],
    spectators: [{ id: 'p4', name: 'Dee', connected: true }],
    round_no: 1, countdown_ends_in_ms: null, time_left_ms: null,
    round: { seats: [seatView(0, 'KS'), seatView(1, 'QH')], foundations: [{ top: 'AH', seat: 1, count: 1 }],
      stuck: [], absent: [], votes: [], cards_home: [0, 1] },
    history: [], result: null,
  });
}

test('room: replaces the keys it carries, keeps the round it does not carry', () => {
  const before = state();
  const after = applyEvent(before, freeze({ kind: 'room', state: { phase: 'round_over', host: 'p2', players: [] } }));
  assert.equal(after.phase, 'round_over');
  assert.equal(after.host, 'p2');
  assert.deepEqual(after.players, []);
  assert.equal(after.round, before.round);
  assert.equal(after.history, before.history);
  assert.equal(before.phase, 'playing');
});

test('room: after a rematch its round: null clears the old table (docs/protocol.md)', () => {
  const before = state();
  const after = applyEvent(before, freeze({ kind: 'room', state: { phase: 'lobby', round: null } }));
  assert.equal(after.phase, 'lobby');
  assert.equal(after.round, null);
  assert.notEqual(before.round, null);
});

test('countdown: the phase and how long it runs', () => {
  const after = applyEvent(state(), freeze({ kind: 'countdown', ends_in_ms: 3000 }));
  assert.equal(after.phase, 'countdown');
  assert.equal(after.countdown_ends_in_ms, 3000);
});

test('round_started: a new round replaces the old one and clears the last result', () => {
  const before = { ...state(), phase: 'countdown', countdown_ends_in_ms: 1200, result: { reason: 'time' } };
  const round = { seats: [seatView(0, '2C')], foundations: [], stuck: [], absent: [], votes: [], cards_home: [0] };
  const after = applyEvent(freeze(before), freeze({ kind: 'round_started', round, round_no: 2, time_left_ms: 60000 }));
  assert.equal(after.phase, 'playing');
  assert.equal(after.round, round);
  assert.equal(after.round_no, 2);
  assert.equal(after.time_left_ms, 60000);
  assert.equal(after.countdown_ends_in_ms, null);
  assert.equal(after.result, null);
});

test('move: replaces the mover seat, sets the changed piles, shares everything else', () => {
  const before = state();
  const event = freeze({ kind: 'move', seat: 0, action: { type: 'foundation', src: 0, pile: null },
    engine: [{ type: 'played', seat: 0, card: 'AS', pile: 2 }, { type: 'turned_up', seat: 0, pile: 0, card: '9D' }],
    seat_view: seatView(0, '9D'), foundations: [{ pile: 2, top: 'AS', seat: 0, count: 1 }],
    stuck: [1], cards_home: [1, 1] });
  const after = applyEvent(before, event);
  assert.equal(after.round.seats[0], event.seat_view);
  assert.equal(after.round.seats[1], before.round.seats[1], 'an untouched seat is the same object: no deep copy');
  assert.equal(after.players, before.players);
  assert.deepEqual(after.round.foundations, [{ top: 'AH', seat: 1, count: 1 }, null, { top: 'AS', seat: 0, count: 1 }]);
  assert.equal(after.round.foundations[0], before.round.foundations[0]);
  assert.deepEqual(after.round.stuck, [1]);
  assert.deepEqual(after.round.cards_home, [1, 1]);
  assert.equal(before.round.seats[0].tableau[0].up[0], 'KS');
  assert.equal(before.round.foundations.length, 1);
});

test('move: a draw changes no foundation and keeps the same foundations array', () => {
  const before = state();
  const after = applyEvent(before, freeze({ kind: 'move', seat: 1, action: { type: 'draw' },
    engine: [{ type: 'drew', seat: 1, n: 3 }], seat_view: seatView(1, 'QH'), foundations: [], stuck: [], cards_home: [0, 1] }));
  assert.equal(after.round.foundations, before.round.foundations);
  assert.notEqual(after.round.seats, before.round.seats);
});

test('votes: the round votes and each player voted flag', () => {
  const before = state();
  const after = applyEvent(before, freeze({ kind: 'votes', votes: [1] }));
  assert.deepEqual(after.round.votes, [1]);
  assert.deepEqual(after.players.map((p) => p.voted), [false, true]);
  assert.equal(after.players[0], before.players[0], 'a player whose vote did not change is the same object');
  assert.equal(after.round.seats, before.round.seats);
});

test('absent: the seats out of the round and the stuck list', () => {
  const after = applyEvent(state(), freeze({ kind: 'absent', absent: [1], stuck: [0] }));
  assert.deepEqual(after.round.absent, [1]);
  assert.deepEqual(after.round.stuck, [0]);
});

test('round_ended: the result and the phase it leads to', () => {
  const result = { round_no: 3, reason: 'demon', winner: 'p1', scores: { p1: 62, p2: 12 },
    totals: { p1: 70, p2: 20 }, match_over: true, winners: ['p1'] };
  const after = applyEvent(state(), freeze({ kind: 'round_ended', result }));
  assert.equal(after.result, result);
  assert.equal(after.phase, 'match_over');
  const next = applyEvent(state(), freeze({ kind: 'round_ended', result: { ...result, match_over: false } }));
  assert.equal(next.phase, 'round_over');
});

test('events that need a round do nothing without one; an unknown kind changes nothing', () => {
  const lobby = freeze({ ...state(), phase: 'lobby', round: null });
  for (const event of [{ kind: 'move', seat: 0, seat_view: {}, foundations: [], stuck: [], cards_home: [] },
    { kind: 'absent', absent: [0], stuck: [] }]) {
    assert.equal(applyEvent(lobby, freeze(event)), lobby);
  }
  assert.equal(applyEvent(lobby, freeze({ kind: 'confetti' })), lobby);
});

test('a whole round from a snapshot, event by event, never changes an earlier state', () => {
  const states = [state()];
  const events = [
    { kind: 'votes', votes: [0] },
    { kind: 'move', seat: 1, action: { type: 'draw' }, engine: [], seat_view: seatView(1, '3C'), foundations: [], stuck: [], cards_home: [0, 1] },
    { kind: 'round_ended', result: { reason: 'vote', winner: null, scores: {}, totals: {}, match_over: false, winners: [] } },
    { kind: 'room', state: { phase: 'round_over' } },
    { kind: 'countdown', ends_in_ms: 3000 },
  ];
  for (const e of events) states.push(freeze(applyEvent(states[states.length - 1], freeze(e))));
  assert.deepEqual(states.map((s) => s.phase), ['playing', 'playing', 'playing', 'round_over', 'round_over', 'countdown']);
  assert.deepEqual(states[0], state());
});

test('playsOf: the foundation plays of a move, from its engine events', () => {
  assert.deepEqual(playsOf({ engine: [{ type: 'moved', seat: 0 }, { type: 'played', seat: 0, card: '2H', pile: 0 },
    { type: 'played', seat: 0, card: '3H', pile: 0 }] }), [{ card: '2H', pile: 0 }, { card: '3H', pile: 0 }]);
  assert.deepEqual(playsOf({ engine: [{ type: 'drew', seat: 0 }] }), []);
});

test('players: by seat, by id, names, colours, host, seated order and this browser seat', () => {
  const st = state();
  assert.equal(playerName(st, 1), 'Bob');
  assert.equal(playerName(st, 5), '#6');
  assert.equal(playerById(st, 'p4').name, 'Dee');
  assert.equal(playerById(st, 'p9'), null);
  assert.equal(playerById(st, null), null);
  assert.equal(colourOfSeat(st, 1), 5);
  assert.equal(isHost(st, 'p1'), true);
  assert.equal(isHost(st, 'p2'), false);
  assert.equal(isHost(st, null), false);
  assert.equal(spectatorCount(st), 1);
  const shuffled = freeze({ players: [{ id: 'a', seat: 2 }, { id: 'b', seat: 0 }, { id: 'c', seat: null }, { id: 'd', seat: 1, left: true }] });
  assert.deepEqual(seatedPlayers(shuffled).map((p) => p.id), ['b', 'a']);
  assert.equal(seatOf(shuffled, 'a'), 2);
  assert.equal(seatOf(shuffled, 'd'), null);
  assert.equal(seatOf(shuffled, 'c'), null);
  assert.equal(seatOf(shuffled, 'zz'), null);
});

test("a bot's name in the page's language; a person's as typed", () => {
  const t = (key, vars) => (key === 'bots.name' ? `Бот ${vars.n}` : key);
  assert.equal(shownName({ name: 'Bot 3', bot: 'easy' }, t), 'Бот 3');
  assert.equal(shownName({ name: 'Bot 3', bot: null }, t), 'Bot 3', 'a person called "Bot 3" keeps the name');
  assert.equal(shownName({ name: 'Bot 3', bot: 'hard' }), 'Bot 3', 'without a translator: as the server sent it');
  assert.equal(shownName(null, t), '');
  const st = { players: [{ seat: 0, name: 'Ann', bot: null }, { seat: 1, name: 'Bot 1', bot: 'medium' }] };
  assert.equal(playerName(st, 1, t), 'Бот 1');
  assert.equal(playerName(st, 0, t), 'Ann');
});
