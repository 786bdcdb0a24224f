// The rank the daily race's results and page show (static/daily/daily-rank.js): one more
// than the finished entries that scored more; none while this browser's race is on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeOf, rankOf } from '../../static/daily/daily-rank.js';

const entry = (score, mine = false) => ({ score, mine });

test('the rank counts the finished entries that scored more, ties sharing a place', () => {
  assert.deepEqual(rankOf([entry(30), entry(20), entry(20, true), entry(5), entry(null)]), { rank: 2, of: 4 });
  assert.deepEqual(rankOf([entry(40, true), entry(30)]), { rank: 1, of: 2 });
  assert.deepEqual(rankOf([entry(30), entry(-3, true)]), { rank: 2, of: 2 });
});

test('no rank without this browser’s finished entry', () => {
  assert.equal(rankOf([entry(30), entry(null, true)]), null);
  assert.equal(rankOf([entry(30), entry(20)]), null);
  assert.equal(rankOf([]), null);
});

test('the table places equal scores together, as the rank does', () => {
  const entries = [entry(30), entry(20), entry(20), entry(5), entry(null)];
  assert.deepEqual([30, 20, 20, 5].map((score) => placeOf(entries, score)), [1, 2, 2, 4]);
});
