// node --test: emotes as plain data (static/demon/emote-model.js): the set, the cooldown the
// buttons show, the muted players kept per room, where an emote floats, what is said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { EMOTES, COOLDOWN_MS, cooldownLeft, mutedIn, setMuted, MAX_MUTED_ROOMS, emoteTarget, emoteWords }
  from '../../static/demon/emote-model.js';
import { t } from '../../static/common/i18n.js';

test('the set is the server\'s, in the same order', () => {
  const server = readFileSync(new URL('../../app/protocol/messages.py', import.meta.url), 'utf8');
  const literal = /EmoteName = Literal\[([^\]]*)\]/.exec(server)[1];
  assert.deepEqual(EMOTES, [...literal.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]));
});

test('the buttons rest for the cooldown after an emote, and not before the first', () => {
  assert.equal(cooldownLeft(null, 5000), 0);
  assert.equal(cooldownLeft(1000, 1000), COOLDOWN_MS);
  assert.equal(cooldownLeft(1000, 1000 + COOLDOWN_MS - 1), 1);
  assert.equal(cooldownLeft(1000, 1000 + COOLDOWN_MS), 0);
  assert.ok(COOLDOWN_MS > 1500, 'longer than the server\'s 1.5 s, so a tap it allows is never refused');
});

test('muted players are kept per room and the input is left alone', () => {
  const empty = {};
  const one = setMuted(empty, 'ABCDEFG', 'p2', true, 10);
  assert.deepEqual(empty, {});
  assert.deepEqual([...mutedIn(one, 'ABCDEFG')], ['p2']);
  assert.deepEqual([...mutedIn(one, 'OTHERRM')], []); // p2 elsewhere is somebody else
  const two = setMuted(one, 'ABCDEFG', 'p3', true, 11);
  assert.deepEqual([...mutedIn(two, 'ABCDEFG')].sort(), ['p2', 'p3']);
  const back = setMuted(setMuted(two, 'ABCDEFG', 'p2', false, 12), 'ABCDEFG', 'p3', false, 13);
  assert.deepEqual(back, {}); // a room with nobody muted is forgotten
});

test('only the most recently changed rooms are kept, and junk reads as nobody muted', () => {
  let all = {};
  for (let i = 0; i < MAX_MUTED_ROOMS + 5; i++) all = setMuted(all, `R${i}`, 'p1', true, i);
  assert.equal(Object.keys(all).length, MAX_MUTED_ROOMS);
  assert.equal(mutedIn(all, 'R0').size, 0);
  assert.equal(mutedIn(all, `R${MAX_MUTED_ROOMS + 4}`).size, 1);
  for (const junk of [null, 'x', [], { R: null }, { R: { ids: 'p1' } }, { R: { ids: [1, 'p2'] } }]) {
    assert.deepEqual([...mutedIn(junk, 'R')], junk && junk.R && Array.isArray(junk.R.ids) ? ['p2'] : []);
  }
});

const state = {
  players: [
    { id: 'p1', name: 'Ann', seat: 0, left: false },
    { id: 'p2', name: 'Bob', seat: 1, left: false },
    { id: 'p3', name: 'Cy', seat: null, left: false },
    { id: 'p4', name: 'Dee', seat: 2, left: true },
  ],
  spectators: [{ id: 'p5', name: 'Eve' }],
};

test('an emote floats over the sender\'s lobby row, own layout or panel', () => {
  const none = new Set();
  assert.deepEqual(emoteTarget(state, { id: 'p2', you: 'p1', view: 'lobby', muted: none }), { kind: 'row', seat: 1 });
  assert.deepEqual(emoteTarget(state, { id: 'p2', you: 'p1', view: 'table', muted: none }), { kind: 'opp', seat: 1 });
  assert.deepEqual(emoteTarget(state, { id: 'p1', you: 'p1', view: 'table', muted: none }), { kind: 'mine', seat: 0 });
  assert.deepEqual(emoteTarget(state, { id: 'p1', you: null, view: 'table', muted: none }), { kind: 'opp', seat: 0 });
});

test('nothing floats for somebody hidden, unseated, gone or unknown; your own is never hidden', () => {
  const hidden = new Set(['p2', 'p1']);
  assert.equal(emoteTarget(state, { id: 'p2', you: 'p1', view: 'table', muted: hidden }), null);
  assert.deepEqual(emoteTarget(state, { id: 'p1', you: 'p1', view: 'table', muted: hidden }), { kind: 'mine', seat: 0 });
  for (const id of ['p3', 'p4', 'p5', 'p9']) {
    assert.equal(emoteTarget(state, { id, you: 'p1', view: 'table', muted: new Set() }), null, id);
  }
  assert.equal(emoteTarget(null, { id: 'p1', you: 'p1', view: 'lobby', muted: new Set() }), null);
});

test('a screen reader hears who and which, in the page\'s words', () => {
  assert.equal(emoteWords('gg', { t, name: 'Bob' }), 'Bob: Good game');
  assert.equal(emoteWords('thumbs_up', { t, name: 'You' }), 'You: Thumbs up');
  assert.equal(emoteWords('shout', { t, name: 'Bob' }), null);
});
