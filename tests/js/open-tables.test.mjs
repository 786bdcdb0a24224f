// node --test: open tables as the home page and the lobby read them
// (static/tables/tables-model.js): the list kept from GET /api/tables, a row's words, what
// a visitor can do at a table, which tables are new, the bots' countdown, and what a
// "Play now" answer says to do next.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  REFRESH_BOUNDS, readTable, readTables, tableParts, actionOf, gameWords, seatWords, languageName, newTables,
  secondsLeft, fillText, playNowStep, playNowErrorKey, withOpenKeys, nextPoll, pressAgain, PLAY_NOW_TRIES,
} from '../../static/tables/tables-model.js';
import { t } from '../../static/common/i18n.js';

const TABLE = {
  code: 'ABCDEFG', game: 'demon', players: 2, bots: 1, max_players: 4, started: false,
  language: 'de', host: 'Ann', play_now: true, fill_at: 1765100000000,
};

test('a table of the wire is kept as it came, with defaults for what it may leave out', () => {
  assert.deepEqual(readTable(TABLE), { ...TABLE, house_rules: null });
  const nerts = readTable({ ...TABLE, game: 'nerts', house_rules: { draw: 1 }, fill_at: null, play_now: undefined });
  assert.deepEqual(nerts.house_rules, { draw: 1 });
  assert.equal(nerts.fill_at, null);
  assert.equal(nerts.play_now, false);
  // a Demon table's house rules mean nothing: not kept
  assert.equal(readTable({ ...TABLE, house_rules: { draw: 1 } }).house_rules, null);
});

test('a table the page cannot show is left out, not shown half', () => {
  for (const bad of [null, 'x', [], { ...TABLE, code: 'a b' }, { ...TABLE, code: 5 }, { ...TABLE, game: 'grip' },
    { ...TABLE, players: -1 }, { ...TABLE, bots: 1.5 }, { ...TABLE, max_players: 0 }]) {
    assert.equal(readTable(bad), null, JSON.stringify(bad));
  }
  const list = readTables({ enabled: true, refresh_s: 5, tables: [TABLE, { ...TABLE, game: 'grip', code: 'ZZZ' },
    { ...TABLE, host: 'Bob' }] });
  assert.deepEqual(list.tables.map((x) => [x.code, x.host]), [['ABCDEFG', 'Ann']], 'bad and repeated codes dropped');
});

test('the list: off when the server says so or sends nothing readable; the poll kept within bounds', () => {
  assert.deepEqual(readTables({ enabled: false, refresh_s: 5, tables: [] }), { enabled: false, refreshS: 5, tables: [] });
  assert.equal(readTables(null).enabled, false);
  assert.equal(readTables({ enabled: 'yes' }).enabled, false);
  assert.equal(readTables({ enabled: true, refresh_s: 0.01 }).refreshS, REFRESH_BOUNDS.min);
  assert.equal(readTables({ enabled: true, refresh_s: 3600 }).refreshS, REFRESH_BOUNDS.max);
  assert.equal(readTables({ enabled: true, refresh_s: 'soon' }).refreshS, REFRESH_BOUNDS.fallback);
  assert.equal(readTables({ enabled: true, refresh_s: 7 }).refreshS, 7);
});

test('a row is drawn again when any field or the language changes, kept otherwise', () => {
  const a = readTable(TABLE);
  assert.deepEqual(tableParts(a, 'en'), tableParts(readTable({ ...TABLE }), 'en'));
  assert.notDeepEqual(tableParts(a, 'en'), tableParts(readTable({ ...TABLE, players: 3 }), 'en'));
  assert.notDeepEqual(tableParts(a, 'en'), tableParts(a, 'de'));
});

test('join a lobby with a free seat, watch a started table, nothing at a full lobby', () => {
  assert.equal(actionOf(readTable(TABLE)), 'join');
  assert.equal(actionOf(readTable({ ...TABLE, started: true })), 'watch');
  assert.equal(actionOf(readTable({ ...TABLE, started: true, players: 3, bots: 1 })), 'watch');
  assert.equal(actionOf(readTable({ ...TABLE, players: 3, bots: 1 })), null);
});

test("a row's words: the game with Nerts' house rules, the seats, the host's language", () => {
  assert.equal(gameWords(readTable(TABLE), t), 'Demon');
  const nerts = readTable({ ...TABLE, game: 'nerts', house_rules: { draw: 1, racing_spaces: true, stall: false } });
  assert.equal(gameWords(nerts, t), 'Nerts · draw 1 · Racing Demon spaces · no stall');
  assert.equal(gameWords(readTable({ ...TABLE, game: 'nerts' }), t), 'Nerts · draw 3', 'none stated: the defaults');
  assert.equal(seatWords(readTable(TABLE), t), '3 of 4 seats: 2 people, 1 bot');
  assert.equal(seatWords(readTable({ ...TABLE, players: 1, bots: 0 }), t), '1 of 4 seats: 1 person');
  assert.equal(seatWords(readTable({ ...TABLE, players: 1, bots: 2 }), t), '3 of 4 seats: 1 person, 2 bots');
  assert.equal(languageName('de'), 'Deutsch');
  assert.equal(languageName('ru'), 'Русский');
  assert.equal(languageName('xx'), 'xx');
});

test('the tables that appeared since the last poll, by code', () => {
  const list = readTables({ enabled: true, tables: [TABLE, { ...TABLE, code: 'NEW1' }, { ...TABLE, code: 'NEW2' }] }).tables;
  assert.deepEqual(newTables(new Set(['ABCDEFG']), list).map((x) => x.code), ['NEW1', 'NEW2']);
  assert.deepEqual(newTables(new Set(['ABCDEFG', 'NEW1', 'NEW2', 'GONE']), list), []);
});

test("the bots' countdown: whole seconds, up, never below zero; none without a fill", () => {
  const now = 1_000_000;
  assert.equal(secondsLeft(now + 14_000, now), 14);
  assert.equal(secondsLeft(now + 13_001, now), 14, 'a part of a second counts as one');
  assert.equal(secondsLeft(now - 5000, now), 0);
  assert.equal(secondsLeft(null, now), null);
  assert.equal(secondsLeft(undefined, now), null);
  assert.equal(secondsLeft(Number.NaN, now), null);
  assert.equal(fillText(now + 14_000, now, t), 'Bots fill the empty seats and the game starts in 14 s');
  assert.equal(fillText(now, now, t), 'Bots fill the empty seats and the game starts now…');
  assert.equal(fillText(null, now, t), null);
});

test('a "Play now" answer: a seat to go to, a table on another process to join, or neither', () => {
  assert.deepEqual(playNowStep({ code: 'ABC', token: 'tok', you: 'p1', seat: 0, spectator: false, fill_at: 5 }),
    { kind: 'seat', code: 'ABC' });
  assert.deepEqual(playNowStep({ join: 'bcdefgh' }), { kind: 'join', code: 'BCDEFGH' });
  assert.equal(playNowStep({ join: '../x' }), null);
  assert.equal(playNowStep({ code: 'ABC' }), null, 'no token: not a seat');
  assert.equal(playNowStep(null), null);
});

test("a table on another process that refused the join: pressed again without it, a few times at most", () => {
  for (const status of [403, 404, 409]) assert.equal(pressAgain(status, 1), true, String(status));
  for (const status of [0, 422, 429, 503]) assert.equal(pressAgain(status, 1), false, String(status));
  assert.equal(pressAgain(409, PLAY_NOW_TRIES - 1), true);
  assert.equal(pressAgain(409, PLAY_NOW_TRIES), false, 'never a loop');
});

test('a refused "Play now" in clear words by its status', () => {
  assert.equal(playNowErrorKey(404), 'tables.off');
  assert.equal(playNowErrorKey(429), 'tables.tooMany');
  assert.equal(playNowErrorKey(503), 'tables.full');
  assert.equal(playNowErrorKey(0), 'error.network');
  assert.equal(playNowErrorKey(422), null);
  for (const key of ['tables.off', 'tables.tooMany', 'tables.full']) assert.notEqual(t(key), key);
});

test("a room event's state states its open-table keys: left out means closed, no fill", () => {
  assert.deepEqual(withOpenKeys({ phase: 'lobby' }), { phase: 'lobby', open: false, fill_at: null });
  assert.deepEqual(withOpenKeys({ phase: 'lobby', open: true, fill_at: 5 }), { phase: 'lobby', open: true, fill_at: 5 });
  // taken over a state that was open and counting: both end
  const before = { phase: 'lobby', open: true, fill_at: 5, host: 'p1' };
  assert.deepEqual({ ...before, ...withOpenKeys({ phase: 'lobby' }) }, { phase: 'lobby', open: false, fill_at: null, host: 'p1' });
});

test('the list is asked again every refresh_s while visible, later after failures, never hidden or off', () => {
  const on = readTables({ enabled: true, refresh_s: 5, tables: [] });
  assert.equal(nextPoll(on, true, 0), 5000);
  assert.equal(nextPoll(null, true, 0), REFRESH_BOUNDS.fallback * 1000, 'no answer yet: the usual wait');
  assert.equal(nextPoll(on, false, 0), null, 'a hidden page asks nothing (it asks when shown again)');
  assert.equal(nextPoll(readTables({ enabled: false, refresh_s: 5 }), true, 0), null, 'off: never again');
  assert.equal(nextPoll(on, true, 1), 10_000);
  assert.equal(nextPoll(on, true, 50), 30_000, 'at most six intervals');
});
