// node --test: what a Nerts room changes in the room's shared model (the stall event in
// static/demon/demon-model.js) and in the socket's decisions (close code 4001 in
// static/demon/connection/socket-state.js). Inputs are frozen: a reducer that changed
// its input would throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { applyEvent } from '../../static/demon/demon-model.js';
import { createSocketState, welcomed, closeOutcome, PROTOCOL, OUTDATED_CODE } from '../../static/demon/connection/socket-state.js';

const PLAYOUT = JSON.parse(readFileSync(new URL('./fixtures/nerts-playout.json', import.meta.url), 'utf8'));

function freeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

const withWaste = PLAYOUT.positions.find((p) => p.view.waste.length).view;
const seatView = (seat) => ({ ...withWaste, seat });

function nertsState() {
  return freeze({
    phase: 'playing',
    options: { rounds: 3, time_limit_s: null, max_players: 8, game: 'nerts', house_rules: { draw: 3, racing_spaces: false, stall: true } },
    round: { seats: [seatView(0), seatView(1), seatView(2)], foundations: [{ top: 'AS', seat: 0, count: 1 }],
      stuck: [0, 1, 2], absent: [], votes: [], cards_home: [1, 0, 0], stalled: false },
  });
}

test('the stall empties every listed waste under its stock and marks the round stalled', () => {
  const before = nertsState();
  const after = applyEvent(before, { kind: 'stall', seats: [0, 2], stock_counts: [30, 27] });
  assert.equal(after.round.stalled, true);
  for (const [seat, stock] of [[0, 30], [2, 27]]) {
    assert.deepEqual(after.round.seats[seat].waste, []);
    assert.equal(after.round.seats[seat].waste_count, 0);
    assert.equal(after.round.seats[seat].stock, stock);
    assert.deepEqual(after.round.seats[seat].work, before.round.seats[seat].work);
    assert.equal(after.round.seats[seat].nerts_top, before.round.seats[seat].nerts_top);
  }
  // a seat the stall did not name is the very same object
  assert.equal(after.round.seats[1], before.round.seats[1]);
  assert.equal(after.round.foundations, before.round.foundations);
});

test('a card to a foundation ends the stall; a move without one keeps it', () => {
  const stalled = freeze(applyEvent(nertsState(), { kind: 'stall', seats: [0, 1, 2], stock_counts: [9, 9, 9] }));
  const base = { kind: 'move', seat: 1, seat_view: seatView(1), stuck: [], cards_home: [1, 0, 0] };
  const drew = applyEvent(stalled, { ...base, action: { type: 'draw' }, engine: [], foundations: [] });
  assert.equal(drew.round.stalled, true);
  const played = applyEvent(stalled, { ...base, action: { type: 'foundation', src: 'nerts', pile: 1 },
    engine: [{ type: 'played', seat: 1, src: 'nerts', card: 'AH', pile: 1, new_pile: true }],
    foundations: [{ pile: 1, top: 'AH', seat: 1, count: 1 }], cards_home: [1, 1, 0] });
  assert.equal(played.round.stalled, false);
  assert.deepEqual(played.round.foundations[1], { top: 'AH', seat: 1, count: 1 });
});

test('a Demon round is not given a stalled flag by a move', () => {
  const demon = freeze({ phase: 'playing', round: { seats: [{ tableau: [], stock: 1, waste: [], waste_count: 0 }],
    foundations: [], stuck: [], cards_home: [0] } });
  const after = applyEvent(demon, { kind: 'move', seat: 0, seat_view: { tableau: [], stock: 0, waste: ['AS'], waste_count: 1 },
    foundations: [{ pile: 0, top: 'AS', seat: 0, count: 1 }], stuck: [], cards_home: [1] });
  assert.equal('stalled' in after.round, false);
});

test('the page speaks protocol 2, and a close with 4001 asks for a reload instead of reconnecting', () => {
  assert.equal(PROTOCOL, 2);
  assert.equal(OUTDATED_CODE, 4001);
  const s = createSocketState(null, null);
  welcomed(s, { v: 0, epoch: 'e' });
  assert.deepEqual(closeOutcome(s, 4001, 'outdated page: reload'), { kind: 'status', status: 'outdated', detail: 'outdated page: reload' });
  // before any welcome too: an old page is refused at its hello
  assert.equal(closeOutcome(createSocketState(null, null), 4001, '').status, 'outdated');
  // the other codes are as before
  assert.deepEqual(closeOutcome(s, 1006, ''), { kind: 'reconnect' });
  assert.equal(closeOutcome(s, 4002, '').status, 'lost');
});
