// node --test: what the Demon table says around the cards (static/demon/round-status.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { voteMatters, watchersOf, spectatorFate, joinProspect, matchOutcome } from '../../static/demon/round-status.js';

const state = (round, spectators = []) => ({ phase: 'playing', round, spectators });

test('the vote matters once this seat is stuck or somebody voted, not from the first second', () => {
  assert.equal(voteMatters(state({ stuck: [], votes: [] }), 0), false);
  assert.equal(voteMatters(state({ stuck: [1], votes: [] }), 0), false, 'another seat stuck');
  assert.equal(voteMatters(state({ stuck: [0], votes: [] }), 0), true, 'this seat stuck');
  assert.equal(voteMatters(state({ stuck: [], votes: [1] }), 0), true, 'someone voted');
  assert.equal(voteMatters(state({ stuck: [0], votes: [] }), null), false, 'a spectator');
  assert.equal(voteMatters({ phase: 'lobby' }, 0), false);
});

test('who watches, and what a spectator is told', () => {
  const st = state({}, [{ id: 'p4', name: 'Dee', next_round: true }, { id: 'p5', name: 'Eve', next_round: false }]);
  assert.deepEqual(watchersOf(st).map((p) => p.name), ['Dee', 'Eve']);
  assert.deepEqual(watchersOf({}), []);
  assert.equal(spectatorFate(st, 'p4'), 'next');
  assert.equal(spectatorFate(st, 'p5'), 'watch');
  assert.equal(spectatorFate(st, 'p1'), null);
  assert.equal(spectatorFate(state({}, [{ id: 'p4' }]), 'p4'), null, 'nothing said, nothing claimed');
});

test('what the join form promises', () => {
  assert.equal(joinProspect({ phase: 'playing', free_seats: 2 }), 'next');
  assert.equal(joinProspect({ phase: 'countdown', free_seats: 1 }), 'next');
  assert.equal(joinProspect({ phase: 'playing', free_seats: 0 }), 'watch');
  assert.equal(joinProspect({ phase: 'lobby', free_seats: 0 }), 'watch');
  assert.equal(joinProspect({ phase: 'round_over', free_seats: 3 }), null);
  assert.equal(joinProspect({ phase: 'lobby', free_seats: 3 }), null);
  assert.equal(joinProspect(null), null);
});

test('a shared best total is a tie, not two winners', () => {
  assert.deepEqual(matchOutcome({ winners: ['p1'] }), { winners: ['p1'], tie: false });
  assert.deepEqual(matchOutcome({ winners: ['p1', 'p2'] }), { winners: ['p1', 'p2'], tie: true });
  assert.deepEqual(matchOutcome(null), { winners: [], tie: false });
});
