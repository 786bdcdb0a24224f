// node --test: which seats the home page asks about, and how the answers are merged
// (static/recent-games.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { MAX_SEATS_ASKED, MAX_SHOWN, gameOfMatch, mergeRecent, recentWhen, seatsToAsk } from '../../static/recent-games.js';

test('seats are asked newest first, spectators and broken entries left out', () => {
  const creds = [
    { code: 'AAA', token: 't1', saved: 1 },
    { code: 'BBB', token: 't2', saved: 3 },
    { code: 'CCC', token: 't3', saved: 2, spectator: true },
    { code: 'DDD', saved: 4 },
    null,
  ];
  assert.deepEqual(seatsToAsk(creds).map((c) => c.code), ['BBB', 'AAA']);
});

test('at most the ten most recent seats are asked', () => {
  const creds = Array.from({ length: 15 }, (_, i) => ({ code: `R${i}`, token: `t${i}`, saved: i }));
  const asked = seatsToAsk(creds);
  assert.equal(asked.length, MAX_SEATS_ASKED);
  assert.equal(asked[0].code, 'R14');
});

test('answers merge newest first, each match once', () => {
  const own = [{ code: 'AAA', finished_at: 10 }, { code: 'BBB', finished_at: 30 }];
  const listed = [{ code: 'BBB', finished_at: 30 }, { code: 'CCC', finished_at: 20 }];
  assert.deepEqual(mergeRecent([own, listed]).map((g) => g.code), ['BBB', 'CCC', 'AAA']);
  // a rematch is another match of the same room
  assert.equal(mergeRecent([[{ code: 'AAA', finished_at: 1 }, { code: 'AAA', finished_at: 2 }]]).length, 2);
});

test('no more than ten are shown, and junk answers are ignored', () => {
  const many = Array.from({ length: 14 }, (_, i) => ({ code: `R${i}`, finished_at: i }));
  assert.equal(mergeRecent([many, null, [null, { finished_at: 3 }]]).length, MAX_SHOWN);
});

test('each match keeps the game the server named; a match without one is Demon', () => {
  const merged = mergeRecent([[{ code: 'AAA', finished_at: 10, game: 'nerts' }, { code: 'BBB', finished_at: 5 }]]);
  assert.deepEqual(merged.map(gameOfMatch), ['nerts', 'demon']);
  assert.equal(gameOfMatch({ code: 'CCC', finished_at: 1, game: 'demon' }), 'demon');
});

test('a match\'s time: the date and the minute in the page\'s language, no seconds', () => {
  const at = Date.UTC(2026, 11, 7, 12, 24, 8) / 1000; // midday: the same date in any time zone
  const en = recentWhen(at, 'en');
  assert.equal(en.iso, '2026-12-07T12:24:08.000Z');
  assert.match(en.text, /Dec 7, 2026|7 Dec 2026/);
  assert.ok(!/:08\b/.test(en.text), en.text); // no seconds
  assert.match(recentWhen(at, 'de').text, /07\.12\.2026|7\. Dez\. 2026/);
  assert.match(recentWhen(at, 'ru').text, /2026/);
  assert.equal(recentWhen(Number.NaN, 'en'), null);
  assert.equal(recentWhen(undefined, 'en'), null);
});
