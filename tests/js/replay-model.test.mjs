// node --test: the replay viewer's tables, times and steps (static/replay/replay-model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { buildTables, tableTimes, delayMs, stepTo, playsInto, applyStall, SPEEDS, LONGEST_PAUSE_S } from '../../static/replay/replay-model.js';

const seat = (n) => ({ seat: n, tableau: [], stock: 24, waste: [], waste_count: 0 });
const REPLAY = {
  round_no: 1,
  players: [{ seat: 0, id: 'p1', name: 'Ann' }, { seat: 1, id: 'p2', name: 'Bob' }],
  initial: { seats: [seat(0), seat(1)], foundations: [], stuck: [], absent: [], votes: [], cards_home: [0, 0] },
  frames: [
    { kind: 'move', seat: 0, action: { type: 'foundation', src: 3, pile: null }, seat_view: { ...seat(0), stock: 23 },
      foundations: [{ pile: 0, top: 'AC', seat: 0, count: 1 }], stuck: [], cards_home: [1, 0], at: 1.25 },
    { kind: 'move', seat: 1, action: { type: 'draw' }, seat_view: { ...seat(1), stock: 21 },
      foundations: [], stuck: [], cards_home: [1, 0], at: null },
    { kind: 'absent', absent: [1], stuck: [], at: 30 },
    { kind: 'finish', reason: 'vote', at: 31 },
  ],
};

test('every table from the deal to the end, each made from the one before', () => {
  const tables = buildTables(REPLAY);
  assert.equal(tables.length, 5);
  assert.equal(tables[0], REPLAY.initial);
  assert.deepEqual(tables[1].foundations, [{ top: 'AC', seat: 0, count: 1 }]);
  assert.equal(tables[1].seats[1], REPLAY.initial.seats[1]); // an untouched seat is shared
  assert.equal(tables[2].seats[1].stock, 21);
  assert.deepEqual(tables[3].absent, [1]);
  assert.equal(tables[4], tables[3]); // the finish changes no card
});

test('times: recorded ones kept, missing ones a step after the last, never going back', () => {
  assert.deepEqual(tableTimes(REPLAY.frames), [0, 1.25, 1.75, 30, 31]);
  assert.deepEqual(tableTimes([{ at: 5 }, { at: 2 }]), [0, 5, 5]);
});

test('the wait between tables follows the speed, a long pause is shortened, the end has none', () => {
  const times = tableTimes(REPLAY.frames);
  assert.equal(delayMs(times, 0, 1), 1250);
  assert.equal(delayMs(times, 0, 2), 625);
  assert.equal(delayMs(times, 0, 0.5), 2500);
  assert.equal(delayMs(times, 2, 1), LONGEST_PAUSE_S * 1000);
  assert.equal(delayMs(times, 4, 1), null);
  assert.deepEqual(SPEEDS, [0.5, 1, 2, 4, 8]);
});

test('steps stay inside the round; the plays that make a table', () => {
  assert.equal(stepTo(0, -1, 5), 0);
  assert.equal(stepTo(3, 1, 5), 4);
  assert.equal(stepTo(4, 1, 5), 4);
  assert.deepEqual(playsInto(REPLAY, 1), [{ pile: 0, seat: 0, src: 3 }]);
  assert.deepEqual(playsInto(REPLAY, 2), []);
  assert.deepEqual(playsInto(REPLAY, 0), []);
});

// A Nerts round (game "nerts"): the same frames with Nerts seat views, and the stall.
const nertsSeat = (n, over = {}) => ({ seat: n, nerts_top: 'QH', nerts_count: 13, work: [['2C'], ['5D'], ['9S'], ['KH']],
  stock: 32, waste: ['3S', '7C', '4D'], waste_count: 3, on_foundations: 0, absent: false, ...over });
const NERTS = {
  game: 'nerts', round_no: 2,
  players: [{ seat: 0, id: 'p1', name: 'Ann' }, { seat: 1, id: 'p2', name: 'Bob' }],
  initial: { seats: [nertsSeat(0), nertsSeat(1)], foundations: [], stuck: [], absent: [], votes: [], cards_home: [0, 0], stalled: false },
  frames: [
    { kind: 'move', seat: 0, action: { type: 'foundation', src: 'nerts', pile: null },
      engine: [{ type: 'played', seat: 0, src: 'nerts', card: 'AH', pile: 0, new_pile: true }, { type: 'turned_up', seat: 0, card: 'JC', nerts_count: 12 }],
      seat_view: nertsSeat(0, { nerts_top: 'JC', nerts_count: 12, on_foundations: 1 }),
      foundations: [{ pile: 0, top: 'AH', seat: 0, count: 1 }], stuck: [], cards_home: [1, 0], at: 0.5 },
    // a draw after which everyone was stuck: the stall inside the move
    { kind: 'move', seat: 1, action: { type: 'draw' },
      engine: [{ type: 'drew', seat: 1, count: 3 }, { type: 'stalled', seat: null, seats: [0, 1], stock_counts: [34, 33] }],
      seat_view: nertsSeat(1, { stock: 33, waste: [], waste_count: 0 }), foundations: [], stuck: [], cards_home: [1, 0], at: 1 },
    // the stall as a frame of its own
    { kind: 'stall', seats: [1], stock_counts: [30], at: 2 },
    { kind: 'finish', reason: 'nerts', at: 3 },
  ],
};

test('a Nerts replay steps through its Nerts seat views like Demon\'s', () => {
  const tables = buildTables(NERTS);
  assert.equal(tables.length, 5);
  assert.equal(tables[1].seats[0].nerts_top, 'JC');
  assert.equal(tables[1].seats[0].nerts_count, 12);
  assert.equal(tables[1].seats[1], NERTS.initial.seats[1]);
  assert.deepEqual(playsInto(NERTS, 1), [{ pile: 0, seat: 0, src: 'nerts' }]);
});

test('N13 stall: every listed seat\'s waste is empty and its stock as the server counted it', () => {
  const tables = buildTables(NERTS);
  // inside the move: the other seat's waste went too, not only the mover's
  assert.deepEqual([tables[2].seats[0].waste, tables[2].seats[0].waste_count, tables[2].seats[0].stock], [[], 0, 34]);
  assert.equal(tables[2].seats[1].stock, 33);
  assert.equal(tables[2].stalled, true);
  assert.equal(tables[1].seats[0].waste.length, 3); // the table before is untouched
  // its own frame
  assert.equal(tables[3].seats[1].stock, 30);
  assert.equal(tables[3].seats[0], tables[2].seats[0]);
  assert.equal(applyStall(tables[0], undefined, undefined), tables[0]);
});
