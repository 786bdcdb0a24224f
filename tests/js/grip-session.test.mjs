// node --test: the Devil's Grip page's session with the server (static/grip/page/grip-session.js)
// over a fake link, API, storage and timers: the first deal, a move played at once and
// handed to the link, what the link reports back, an older save loaded from the server, par,
// hints (and waiting for the connection), "only deals that can be won" offline, and a
// destroyed page that ignores late answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createGripSession } from '../../static/grip/page/grip-session.js';
import { newGame, play, current, recordOf, viewOf } from '../../static/grip/grip-local.js';
import { legalActions } from '../../static/grip/grip-rules.js';
import { savedGameOf } from '../../static/grip/sync/grip-reconcile.js';
import { t } from '../../static/common/i18n.js';
import fs from 'node:fs';

const solution = JSON.parse(fs.readFileSync(new URL('./fixtures/grip-deal3-solution.json', import.meta.url)));

const settle = () => new Promise((resolve) => { setTimeout(resolve, 0); });

// A game after its first `n` moves (no swaps, no end).
const moved = (number, n) => {
  let g = newGame(number, null);
  for (let i = 0; i < n; i++) {
    const [action] = legalActions(current(g), { swaps: false }).filter((a) => a.type !== 'end');
    g = play(g, { op: 'action', action });
  }
  return g;
};
// The server's answer for a page game: its record, its count and its view.
const answerFor = (g, seq, id = 'g1') => ({ ...recordOf(g), seq, state: viewOf(current(g)), id, par: null, used_hint: false });

function harness({ saved = null, prefs = {}, api = {}, timers = null } = {}) {
  const calls = { toasts: [], sounds: [], changed: 0, cleared: 0, dropped: 0, shown: [], announced: [], pushed: [],
    followed: [], stored: [], recorded: [], reachable: [], asked: [], closed: false };
  let on = null;
  let followedNow = null;
  let online = true;
  const link = {
    follow(g) { followedNow = g; calls.followed.push(g); },
    current: () => followedNow,
    push(op) { followedNow.pending.push(op); calls.pushed.push(op); },
    idle: async () => true,
    online: () => online,
    reachable(yes) { calls.reachable.push(yes); },
    retry() {},
    close() { calls.closed = true; },
  };
  const failOffline = async () => { throw Object.assign(new Error('offline'), { status: 0 }); };
  const session = createGripSession({
    createLink: (options) => { on = options.on; return link; },
    api: {
      gripSync: failOffline,
      gripPar: async (id) => { calls.asked.push(['par', id]); return { par: 30 }; },
      gripOp: async (id, token, body) => { calls.asked.push(['op', id, body]); return { hint: null, hint_info: null, used_hint: true }; },
      gripSolution: failOffline,
      newGrip: failOffline,
      ...api,
    },
    store: {
      getGripGame: () => saved,
      setGripGame: (g) => { calls.stored.push(g); },
      recordGripResult: (r) => { calls.recorded.push(r); },
      getPref: (name, fallback) => (name in prefs ? prefs[name] : fallback),
      setPref: (name, value) => { prefs[name] = value; },
    },
    sleep: async () => {},
    // by default no timer runs (no search for a win, no "Finish" played); `timers` real ones
    now: timers ? () => performance.now() : () => 0,
    setTimer: timers ? (fn, ms) => setTimeout(fn, ms) : () => 0,
    clearTimer: timers ? (timer) => clearTimeout(timer) : () => {},
    sound: (name) => { calls.sounds.push(name); },
    toast: (text, kind) => { calls.toasts.push([text, kind]); },
    confirm: () => true,
    page: {
      changed: () => { calls.changed += 1; },
      cleared: () => { calls.cleared += 1; },
      drop: () => { calls.dropped += 1; },
      shown: (game) => { calls.shown.push(game); },
      announce: (text) => { calls.announced.push(text); },
    },
  });
  return { session, calls, link, on: () => on, setOnline: (yes) => { online = yes; }, prefs };
}

test('with nothing saved, a deal is dealt on the page at once and followed', async () => {
  const { session, calls } = harness();
  await session.load();
  assert.equal(calls.followed.length, 1);
  const [followed] = calls.followed;
  assert.equal(followed.id, null, 'the server learns of it through the link, later');
  assert.equal(session.game().number, followed.number);
  assert.deepEqual(calls.sounds, ['draw']);
  assert.equal(calls.shown.length, 1, 'the guide sees the game');
  assert.ok(calls.cleared >= 1 && calls.changed >= 1);
  const screen = session.screen();
  assert.equal(screen.game, session.game());
  assert.equal(screen.saved, followed);
  assert.deepEqual([screen.busy, screen.finished, screen.sync, screen.verified], [false, false, null, false]);
});

test('a move is played at once and handed to the link; an illegal one is refused with a warning', async () => {
  const { session, calls } = harness();
  await session.load();
  const [action] = session.legal().filter((a) => a.type !== 'end');
  assert.equal(session.op({ op: 'action', action }), true);
  assert.deepEqual(calls.pushed, [{ op: 'action', action }]);
  assert.equal(session.game().can_undo, true);
  assert.ok(calls.sounds.includes(action.type === 'deal' ? 'draw' : 'place'));
  calls.toasts.length = 0;
  assert.equal(session.op({ op: 'redo' }), false, 'nothing to redo');
  assert.equal(calls.pushed.length, 1, 'nothing sent');
  assert.equal(calls.sounds.at(-1), 'bad');
  assert.equal(calls.toasts.length, 1);
  assert.equal(calls.toasts[0][1], 'warn');
});

test('the link reports: created fetches the par, lost and unreachable say so on the sync line', async () => {
  const { session, calls, link, on } = harness();
  await session.load();
  const followed = link.current();
  followed.id = 'A'; // the link adopts the server's id before it reports (grip-outbox.js adoptCreated)
  followed.token = 'tA';
  on().created(answerFor(newGame(followed.number, null), 0, 'A'));
  assert.equal(session.game().id, 'A');
  await settle();
  assert.deepEqual(calls.asked, [['par', 'A']]);
  assert.equal(session.game().par, 30);
  assert.equal(followed.meta.par, 30, 'kept with the saved game');
  assert.equal(calls.stored.at(-1), followed);
  on().reachable(false);
  assert.deepEqual(session.screen().sync, { kind: 'offline' });
  on().reachable(true);
  assert.equal(session.screen().sync, null);
  on().lost('gone');
  assert.deepEqual(session.screen().sync, { kind: 'lost', reason: 'gone' });
  assert.equal(calls.stored.at(-1), null, 'the saved game is forgotten');
});

test('an acknowledged batch whose game is not the page\'s puts the page back on the server\'s', async () => {
  const { session, calls, on } = harness();
  await session.load();
  const number = session.game().number;
  on().acked(answerFor(moved(number, 2), 2)); // nothing pending, and the server has two moves more
  assert.deepEqual(session.screen().sync, { kind: 'refused', reason: t('grip.differs') });
  assert.equal(session.game().can_undo, true, 'the server\'s game is shown');
  assert.equal(calls.sounds.at(-1), 'bad');
  assert.deepEqual(calls.toasts.at(-1), [t('grip.refused', { reason: t('grip.differs') }), 'warn']);
});

test('an older save (only id and token) loads the server\'s record; one the server lost, a new deal', async () => {
  const server = moved(5, 3);
  const { session, calls } = harness({ saved: { id: 'g1', token: 't', daily: true },
    api: { gripSync: async () => ({ ...answerFor(server, 3), par: 40 }) } });
  await session.load();
  assert.equal(calls.followed.length, 1);
  assert.deepEqual([calls.followed[0].id, calls.followed[0].seq, calls.followed[0].daily], ['g1', 3, true]);
  assert.deepEqual(session.game().state, viewOf(current(server)));
  assert.equal(session.screen().isDaily, true);
  const gone = harness({ saved: { id: 'g1', token: 't' },
    api: { gripSync: async () => { throw Object.assign(new Error('gone'), { status: 404 }); } } });
  await gone.session.load();
  assert.equal(gone.calls.followed.length, 1);
  assert.equal(gone.calls.followed[0].id, null, 'a new deal, dealt on the page');
  assert.equal(gone.session.screen().loadError, '');
});

test('a hint waits for the connection; once answered it is shown and said', async () => {
  const { session, calls, link, setOnline } = harness();
  await session.load();
  setOnline(false);
  assert.equal(await session.askHint(), false);
  assert.deepEqual(calls.toasts, [[t('grip.waitsForConnection'), undefined]]);
  assert.deepEqual(calls.asked, []);
  setOnline(true);
  Object.assign(link.current(), { id: 'g1', token: 't' });
  const asking = session.askHint();
  assert.equal(session.screen().hintAsked, true);
  assert.equal(await asking, true);
  assert.deepEqual(calls.asked, [['op', 'g1', { op: 'hint' }]]);
  assert.equal(session.screen().hintAsked, false);
  assert.equal(session.game().used_hint, true);
  assert.equal(link.current().meta.used_hint, true);
  assert.deepEqual(calls.announced, [t('grip.noHint')]);
  assert.deepEqual(calls.toasts.at(-1), [t('grip.noHint'), undefined]);
});

test('"only deals that can be won" with the server out of reach deals a random deal, with a warning', async () => {
  const { session, calls } = harness({ prefs: { gripWinnable: true } });
  await session.load();
  assert.deepEqual(calls.toasts, [[t('grip.winnableOffline'), 'warn']]);
  assert.equal(calls.followed.length, 1);
  assert.equal(session.screen().busy, false);
  assert.equal(session.screen().winnableOnly, true);
  session.setWinnable(false);
  session.setPasses(3);
  assert.equal(session.screen().winnableOnly, false);
  assert.equal(session.screen().passes, 3);
});

test('a destroyed page closes the link and ignores what comes back', async () => {
  const { session, calls, on } = harness();
  await session.load();
  session.destroy();
  assert.equal(calls.closed, true);
  assert.equal(session.destroyed(), true);
  const before = calls.changed;
  on().acked(answerFor(moved(session.game().number, 2), 2));
  assert.equal(calls.changed, before);
  assert.equal(session.screen().sync, null);
});

// A reloaded game with nothing left to send is checked against the server's record
// (grip-start.js `check`): the session must check the game the link now follows.
test('a reloaded game is checked with the server: a record that differs is the server\'s', async () => {
  const mine = moved(7, 2);
  const saved = savedGameOf(recordOf(mine), { id: 'g7', token: 't7', seq: 2 });
  const theirs = moved(7, 4);
  const syncs = [];
  const { session, calls } = harness({
    saved,
    api: { gripSync: async (id, token) => { syncs.push([id, token]); return answerFor(theirs, 4, 'g7'); } },
  });
  await session.load();
  await settle();
  assert.deepEqual(syncs, [['g7', 't7']], 'the server was asked once, for this game');
  assert.deepEqual(session.game().state, viewOf(current(theirs)), 'the page follows the server\'s game');
  assert.equal(calls.stored.at(-1).seq, 4);
  assert.equal(session.screen().sync?.kind, 'refused');
});

test('a reloaded game the server agrees with stays as it is, acknowledged', async () => {
  const mine = moved(9, 3);
  const saved = savedGameOf(recordOf(mine), { id: 'g9', token: 't9', seq: 3 });
  const syncs = [];
  const { session } = harness({
    saved,
    api: { gripSync: async (id, token) => { syncs.push([id, token]); return answerFor(mine, 3, 'g9'); } },
  });
  await session.load();
  await settle();
  assert.deepEqual(syncs, [['g9', 't9']]);
  assert.deepEqual(session.game().state, viewOf(current(mine)));
  assert.equal(session.screen().sync, null);
});

// Real timers: until `ready()` holds, or 200 turns of the event loop.
async function until(ready) {
  for (let i = 0; i < 200 && !ready(); i += 1) await new Promise((resolve) => { setTimeout(resolve, 1); });
}

test('"Finish" is offered right after the move that makes the win provable, with no pause to wait for', async () => {
  const { session, calls } = harness({ prefs: { gripPasses: null }, timers: true });
  await session.load();
  await session.newDeal({ number: 3 });
  assert.equal(session.game().number, 3);
  const redeal = solution.line.findIndex((a) => a.type === 'redeal');
  for (const action of solution.line.slice(0, redeal)) assert.equal(session.op({ op: 'action', action }), true);
  await settle();
  assert.equal(session.screen().finishLine, false, 'the first pass: the stock\'s order is not known');
  session.op({ op: 'action', action: solution.line[redeal] });
  await until(() => session.screen().finishLine);
  assert.equal(session.screen().finishLine, true, 'offered in the second pass, with most cards still out');
  assert.ok(session.game().state.score > 40);
  assert.deepEqual(calls.announced, [t('grip.finishOffer')]);
  // the next move, whatever it is, keeps the offer drawn while the new position is searched
  session.op({ op: 'action', action: solution.line[redeal + 1] });
  assert.equal(session.screen().finishLine, true, 'still drawn, at once');
  await until(() => !session.screen().finishLine);
  assert.equal(session.screen().finishLine, true, 'and still offered: the win is proven again');
  assert.equal(calls.announced.length, 1, 'said once, not after every move');
  // pressed at once after a move, it plays when the search answers
  session.op({ op: 'action', action: solution.line[redeal + 2] });
  session.autoFinish();
  await until(() => session.finishing());
  assert.equal(session.finishing(), true);
  session.destroy();
});

test('an offer that no longer holds goes: the deal ended', async () => {
  const { session } = harness({ prefs: { gripPasses: null }, timers: true });
  await session.load();
  await session.newDeal({ number: 3 });
  const redeal = solution.line.findIndex((a) => a.type === 'redeal');
  for (const action of solution.line.slice(0, redeal + 1)) session.op({ op: 'action', action });
  await until(() => session.screen().finishLine);
  assert.equal(session.screen().finishLine, true);
  session.op({ op: 'end' });
  await until(() => !session.screen().finishLine);
  assert.equal(session.screen().finishLine, false);
  session.autoFinish();
  await settle();
  assert.equal(session.finishing(), false, 'nothing to finish');
  session.destroy();
});
