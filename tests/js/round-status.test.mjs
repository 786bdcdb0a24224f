// node --test: what the Demon table says around the cards (static/demon/round-status.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { voteMatters, voteCount, endChoice, watchersOf, spectatorFate, joinProspect, matchOutcome } from '../../static/demon/round-status.js';

const state = (round, spectators = [], players = [{ seat: 0 }, { seat: 1 }]) => ({ phase: 'playing', round, spectators, players });
const bot = (seat) => ({ seat, bot: 'easy' });

test('the vote matters once this seat is stuck or somebody voted, not from the first second', () => {
  assert.equal(voteMatters(state({ stuck: [], votes: [] }), 0), false);
  assert.equal(voteMatters(state({ stuck: [1], votes: [] }), 0), false, 'another seat stuck');
  assert.equal(voteMatters(state({ stuck: [0], votes: [] }), 0), true, 'this seat stuck');
  assert.equal(voteMatters(state({ stuck: [], votes: [1] }), 0), true, 'someone voted');
  assert.equal(voteMatters(state({ stuck: [0], votes: [] }), null), false, 'a spectator');
  assert.equal(voteMatters({ phase: 'lobby' }, 0), false);
  const withBot = (votes) => state({ stuck: [], votes }, [], [{ seat: 0 }, { seat: 1 }, bot(2)]);
  assert.equal(voteMatters(withBot([2]), 0), false, "a bot's vote is not the people's");
});

test('bots follow the people: only the people are counted, unless the bots were let finish', () => {
  const players = [{ seat: 0 }, { seat: 1 }, bot(2), bot(3)];
  assert.deepEqual(voteCount(state({ votes: [0, 2] }, [], players)), { votes: 1, voters: 2 });
  assert.deepEqual(voteCount(state({ votes: [0, 2], absent: [1] }, [], players)), { votes: 1, voters: 1 });
  const alone = [{ seat: 0 }, bot(1), bot(2)];
  assert.deepEqual(voteCount(state({ votes: [0, 1], bots_finish: true }, [], alone)), { votes: 2, voters: 3 });
  assert.deepEqual(voteCount(state({ votes: [1] }, [], [bot(0), bot(1)])), { votes: 1, voters: 2 }, 'bots alone');
  assert.deepEqual(voteCount({ phase: 'lobby' }), { votes: 0, voters: 0 });
});

test('the choice offered: end now or let the bots finish only when every opponent is a bot', () => {
  const alone = [{ seat: 0 }, bot(1), bot(2)];
  assert.equal(endChoice(state({ votes: [] }, [], alone), 0), 'alone');
  assert.equal(endChoice(state({ votes: [0], bots_finish: true }, [], alone), 0), 'finishing');
  assert.equal(endChoice(state({ votes: [] }, [], [{ seat: 0 }, { seat: 1 }, bot(2)]), 0), 'vote');
  assert.equal(endChoice(state({ votes: [], absent: [1] }, [], [{ seat: 0 }, { seat: 1 }, bot(2)]), 0), 'alone',
    'the other person is out of the round');
  assert.equal(endChoice(state({ votes: [] }, [], alone), null), null, 'a spectator');
  assert.equal(endChoice({ phase: 'round_over', round: {} }, 0), null);
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
