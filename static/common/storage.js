// Everything the browser remembers, in one place. Storage can be full or forbidden
// (private windows): every access is wrapped so the game still works without it.

import { addResult, normalize } from '../grip/grip-stats.js';

// `store` is a function giving the Storage: even asking for it can throw.
function read(store, key) {
  try {
    const raw = store().getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(store, key, value) {
  try {
    if (value === null || value === undefined) store().removeItem(key);
    else store().setItem(key, JSON.stringify(value));
  } catch {
    // quota or privacy mode: forget silently
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

// Preferences: language, sound, four-colour deck, last name typed, plays read out.
export function getPref(name, fallback) {
  const prefs = read(local, 'dg.prefs') || {};
  return name in prefs ? prefs[name] : fallback;
}

export function setPref(name, value) {
  const prefs = read(local, 'dg.prefs') || {};
  prefs[name] = value;
  write(local, 'dg.prefs', prefs);
}

// Which plays at the Demon table are read out to a screen reader: 'all' (everyone's,
// the default) or 'mine' (only this player's own).
export function getAnnounce() {
  return getPref('announce', 'all') === 'mine' ? 'mine' : 'all';
}

export function setAnnounce(which) {
  setPref('announce', which === 'mine' ? 'mine' : 'all');
}

// A seat in a room: {code, token, seat, spectator, name}. Kept in localStorage so that
// a reload (or reopening the room link later) returns to the same seat.
export function getRoomCreds(code) {
  return read(local, `dg.room.${code}`);
}

export function setRoomCreds(code, creds) {
  write(local, `dg.room.${code}`, creds ? { ...creds, saved: Date.now() } : null);
  pruneRooms();
}

// Every seat kept, in no particular order (the home page asks for their finished matches).
export function listRoomCreds() {
  const found = [];
  try {
    for (let i = 0; i < local().length; i++) {
      const key = local().key(i);
      if (key && key.startsWith('dg.room.')) found.push(read(local, key));
    }
  } catch {
    // storage unavailable: no seats
  }
  return found.filter(Boolean);
}

function pruneRooms() {
  // keep the twenty most recent rooms
  try {
    const keys = [];
    for (let i = 0; i < local().length; i++) {
      const key = local().key(i);
      if (key && key.startsWith('dg.room.')) keys.push([key, (read(local, key) || {}).saved || 0]);
    }
    keys.sort((a, b) => b[1] - a[1]);
    for (const [key] of keys.slice(20)) local().removeItem(key);
  } catch {
    // ignore
  }
}

// The last state and version seen in a room, per tab: a reload sends this `v` in its
// hello and gets only the events it missed.
export function getRoomCache(code) {
  return read(session, `dg.cache.${code}`);
}

export function setRoomCache(code, cache) {
  write(session, `dg.cache.${code}`, cache);
}

// The Devil's Grip game in progress: {id, token, ...} (grip-link.js says what else).
export function getGripGame() {
  return read(local, 'dg.grip.current');
}

// A game the server holds that this page leaves for another (a new deal) is kept in the
// list of played games as left unfinished, when the server has at least one of its moves.
// The game is saved after every move: what the check needs of the one saved before is
// remembered here (`gripBefore`), not read back and parsed each time.
let gripBefore; // undefined until the first save reads it

function gripSummary(game) {
  if (!game || !game.id || !game.token) return null;
  const moved = Boolean(game.acked && Array.isArray(game.acked.actions) && game.acked.actions.length);
  return { id: game.id, token: game.token, number: game.number, passes: game.passes ?? null,
    daily: Boolean(game.daily), moved };
}

export function setGripGame(game) {
  const before = gripBefore === undefined ? gripSummary(read(local, 'dg.grip.current')) : gripBefore;
  if (before && before.moved && (!game || game.id !== before.id)) {
    const { moved, ...kept } = before;
    keepPlayed({ ...kept, over: false, score: null, won: false }, false);
  }
  write(local, 'dg.grip.current', game);
  gripBefore = gripSummary(game);
}

// Devil's Grip games this browser played, newest first (at most MAX_PLAYED_KEPT), each
// with the token that proves it is this browser's: the only way back to a game once the
// page has moved on, and what its replay (/grip/replay/{id}) is asked for with.
// {id, token, number, passes, daily, over, score, won, at}
const MAX_PLAYED_KEPT = 30;

export function listGripPlayed() {
  const list = read(local, 'dg.grip.played');
  return Array.isArray(list) ? list.filter((g) => g && typeof g.id === 'string' && typeof g.token === 'string') : [];
}

// `replace`: a finished game's entry replaces what was kept (a later finish, after an
// undo, has the last word); a game left unfinished never replaces a finished entry.
function keepPlayed(entry, replace) {
  const list = listGripPlayed();
  const old = list.find((g) => g.id === entry.id);
  if (old && (!replace || (old.over === entry.over && old.score === entry.score))) return;
  const kept = { ...entry, at: Date.now() };
  write(local, 'dg.grip.played', [kept, ...list.filter((g) => g.id !== entry.id)].slice(0, MAX_PLAYED_KEPT));
}

// Devil's Grip statistics, per pass limit, with deals played with undo or hints kept
// apart (rule 12); the shape and the arithmetic are in grip-stats.js. Statistics of the
// earlier format (no pass limit recorded) are left where they were and not shown.
export function getGripStats() {
  return normalize(read(local, 'dg.grip.stats2'));
}

export function recordGripResult(result) {
  const stats = addResult(getGripStats(), result);
  write(local, 'dg.grip.stats2', stats);
  const game = getGripGame(); // the game that counted is the one in progress: its token is there
  if (game && game.id === result.id && game.token) {
    keepPlayed({ id: game.id, token: game.token, number: game.number, passes: result.passes,
      daily: Boolean(game.daily), over: true, score: result.score, won: Boolean(result.won) }, true);
  }
  return stats;
}

// Players whose emotes this browser hides, per room (emote-model.js `setMuted` keeps
// the shape and the bound): {code: {ids: [player ids], at: time}}.
export function getMutedEmotes() {
  return getPref('emoteMuted', {});
}

export function setMutedEmotes(all) {
  setPref('emoteMuted', all);
}
