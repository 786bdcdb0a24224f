// node --test: the game a room plays and Nerts' house rules, as the pages read, send and
// name them (static/racing/game-options.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  GAMES, HOUSE_RULE_DEFAULTS, gameOf, houseRulesOf, choiceOf, wireFields, gameLine, houseRuleParts,
  formatScore, callKey, reasonText,
} from '../../static/racing/game-options.js';
import en from '../../static/i18n/en.js';

// The page's translate over the English table (common/i18n.js does the same with {vars}).
const t = (key, vars = {}) => {
  const text = en[key];
  if (text === undefined) throw new Error(`no English text for ${key}`);
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
};

test('no game key, or one the page does not know, is Demon', () => {
  assert.deepEqual(GAMES, ['demon', 'nerts']);
  assert.equal(gameOf({ rounds: 3 }), 'demon');
  assert.equal(gameOf(null), 'demon');
  assert.equal(gameOf({ game: 'poker' }), 'demon');
  assert.equal(gameOf({ game: 'nerts' }), 'nerts');
});

test('missing or unknown house rules take their defaults (H2 draw 3, H3 off, H4 on)', () => {
  assert.deepEqual(houseRulesOf(undefined), { draw: 3, racing_spaces: false, stall: true });
  assert.deepEqual(houseRulesOf({ draw: 1 }), { draw: 1, racing_spaces: false, stall: true });
  assert.deepEqual(houseRulesOf({ draw: 2, racing_spaces: 'yes', stall: false }), { draw: 3, racing_spaces: false, stall: false });
  assert.deepEqual(HOUSE_RULE_DEFAULTS, houseRulesOf({}));
});

test('a Nerts room options give the game and every house rule', () => {
  const opts = { rounds: 3, time_limit_s: null, max_players: 8, game: 'nerts', house_rules: { draw: 1, racing_spaces: true, stall: true } };
  assert.deepEqual(choiceOf(opts), { game: 'nerts', house_rules: { draw: 1, racing_spaces: true, stall: true } });
  assert.deepEqual(choiceOf({ rounds: 3 }), { game: 'demon', house_rules: HOUSE_RULE_DEFAULTS });
});

test('what is sent: Nerts with its house rules; Demon nothing, or game demon to switch back', () => {
  const nerts = { game: 'nerts', house_rules: { draw: 1, racing_spaces: false, stall: false } };
  assert.deepEqual(wireFields(nerts), { game: 'nerts', house_rules: { draw: 1, racing_spaces: false, stall: false } });
  const demon = { game: 'demon', house_rules: HOUSE_RULE_DEFAULTS };
  assert.deepEqual(wireFields(demon), {}); // a Demon room's bytes stay as they were
  assert.deepEqual(wireFields(demon, { rounds: 3 }), {});
  assert.deepEqual(wireFields(demon, { rounds: 3, game: 'nerts' }), { game: 'demon' });
});

test('the header line names the game and the house rules in short form', () => {
  assert.equal(gameLine({ rounds: 3 }, t), 'Demon');
  assert.equal(gameLine(undefined, t), 'Demon');
  assert.equal(gameLine({ game: 'nerts' }, t), 'Nerts'); // no house rules stated: none guessed
  assert.equal(gameLine({ game: 'nerts', house_rules: {} }, t), 'Nerts · draw 3');
  assert.equal(gameLine({ game: 'nerts', house_rules: { draw: 1, racing_spaces: true } }, t),
    'Nerts · draw 1 · Racing Demon spaces');
  assert.equal(gameLine({ game: 'nerts', house_rules: { stall: false } }, t), 'Nerts · draw 3 · no stall');
  assert.deepEqual(houseRuleParts({ draw: 1, racing_spaces: true, stall: false }).map(([k]) => k),
    ['house.short.draw', 'house.short.racingSpaces', 'house.short.noStall']);
});

test('a negative score has a real minus sign, once', () => {
  assert.equal(formatScore(-4), '\u22124');
  assert.equal(formatScore(0), '0');
  assert.equal(formatScore(17), '17');
  assert.equal(formatScore(-26), '\u221226');
  assert.equal(formatScore(undefined), '0');
  assert.notEqual(formatScore(-4), '4');
  assert.ok(!formatScore(-4).includes('-'));
});

test('the call and the reason follow the game: "Nerts!" for nerts, "Demon!" for demon', () => {
  assert.equal(t(callKey('nerts')), 'Nerts!');
  assert.equal(t(callKey('demon')), 'Demon!');
  assert.equal(callKey('stuck'), null);
  assert.equal(reasonText('nerts', 'Ann', t), 'Ann called “Nerts!”');
  assert.ok(!reasonText('nerts', 'Ann', t).includes('Demon'));
  assert.match(reasonText('demon', 'Bo', t), /Bo .*Demon!/);
  assert.equal(reasonText('time', null, t), en['result.time']);
  assert.equal(reasonText('abandoned', null, t), en['result.abandoned']);
  assert.equal(reasonText('no-such-reason', null, t), en['result.ended']);
  assert.equal(reasonText('nerts', null, t), 'Ann called “Nerts!”'.replace('Ann', '?'));
});

test('a round the bots finished for their person says so, not that the players voted', () => {
  assert.equal(reasonText('vote', null, t, true), 'The bots finished the round for you.');
  assert.equal(reasonText('vote', null, t, false), en['result.vote']);
  assert.match(reasonText('demon', 'Bot 2', t, true), /Bot 2 .*Demon!/); // a bot went out: said as such
});
