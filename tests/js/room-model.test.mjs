// node --test: the room page's model (static/demon/room-model.js): the seat, the clocks, the
// legal actions, and which view the room shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createRoomModel, adoptState, adoptEvent, adoptLegal, deadlines, viewKind } from '../../static/demon/room-model.js';

const players = [{ id: 'p1', seat: 0, name: 'Ann', left: false }, { id: 'p2', seat: 1, name: 'Bob', left: false }];

test('the clocks of a state: the countdown, or the round time left', () => {
  assert.deepEqual(deadlines({ phase: 'countdown', countdown_ends_in_ms: 2500, time_left_ms: null }, 1000),
    { countdownEnd: 3500, timeEnd: null });
  assert.deepEqual(deadlines({ phase: 'playing', countdown_ends_in_ms: null, time_left_ms: 60000 }, 10),
    { countdownEnd: null, timeEnd: 60010 });
  assert.deepEqual(deadlines({ phase: 'playing', countdown_ends_in_ms: null, time_left_ms: null }, 10),
    { countdownEnd: null, timeEnd: null });
});

test('a snapshot sets the state, the seat of this player and the clocks', () => {
  const model = createRoomModel('KXWPRTM', { token: 't' });
  model.you = 'p2';
  adoptState(model, { phase: 'lobby', players, round: null }, 0);
  assert.equal(model.seat, 1);
  assert.equal(model.countdownEnd, null);
  assert.equal(viewKind(model.state), 'lobby');
});

test('events move the clocks: countdown, round started, round ended', () => {
  const model = createRoomModel('KXWPRTM', { token: 't' });
  model.you = 'p1';
  adoptState(model, { phase: 'lobby', players, round: null }, 0);
  adoptEvent(model, { kind: 'countdown', ends_in_ms: 3000 }, 100);
  assert.equal(model.countdownEnd, 3100);
  assert.equal(viewKind(model.state), 'lobby');
  const round = { seats: [], foundations: [], stuck: [], votes: [], cards_home: [] };
  adoptEvent(model, { kind: 'round_started', round, round_no: 1, time_left_ms: 5000 }, 3100);
  assert.equal(model.countdownEnd, null);
  assert.equal(model.timeEnd, 8100);
  assert.equal(viewKind(model.state), 'table');
  adoptEvent(model, { kind: 'round_ended', result: { reason: 'time', match_over: false } }, 8100);
  assert.equal(model.timeEnd, null);
  assert.equal(model.state.phase, 'round_over');
  assert.equal(viewKind(model.state), 'table');
});

test('a room event that ends the countdown stops its clock; the seat follows the players', () => {
  const model = createRoomModel('KXWPRTM', { token: 't' });
  model.you = 'p2';
  adoptState(model, { phase: 'countdown', countdown_ends_in_ms: 3000, players, round: null }, 0);
  assert.equal(model.countdownEnd, 3000);
  adoptEvent(model, { kind: 'room', state: { phase: 'lobby', players: [{ ...players[1], seat: 0 }] } }, 50);
  assert.equal(model.countdownEnd, null);
  assert.equal(model.seat, 0);
  adoptEvent(model, { kind: 'room', state: { players: [{ ...players[1], seat: 0, left: true }] } }, 60);
  assert.equal(model.seat, null);
});

test('legal actions older than the ones held are dropped', () => {
  const model = createRoomModel('KXWPRTM', { token: 't' });
  assert.equal(adoptLegal(model, { v: 7, actions: [{ type: 'draw' }] }), true);
  assert.equal(adoptLegal(model, { v: 6, actions: [] }), false);
  assert.deepEqual(model.legal, [{ type: 'draw' }]);
  assert.equal(adoptLegal(model, { v: 7, actions: [] }), true);
  assert.deepEqual(model.legal, []);
  assert.equal(model.legalV, 7);
});

test('no state: no view', () => {
  assert.equal(viewKind(null), null);
});
