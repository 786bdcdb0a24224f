// Everything the browser remembers, in one place. Storage can be full or forbidden
// (private windows): every access is wrapped so the game still works without it.

import { addResult, normalize } from '../grip/grip-stats.js';

/**
 * The preferences kept, by name, with the type each is saved with (setPref takes only
 * that type; what getPref reads back is taken to be what this app wrote, and callers
 * that cannot afford a damaged value check it).
 * @typedef {{
 *   lang: string,
 *   sound: boolean,
 *   fourColour: boolean,
 *   letters: string,
 *   animations: boolean,
 *   hand: string,
 *   theme: string,
 *   announce: 'all' | 'mine',
 *   name: string,
 *   browserId: string,
 *   practiceBots: number,
 *   practiceLevel: string,
 *   dailyLevel: string,
 *   gripPasses: number | null,
 *   gripWinnable: boolean,
 *   gripSolutionsSeen: number[],
 *   guideGrip: boolean,
 *   guideRoom: string | null,
 *   emoteMuted: Record<string, { ids: string[], at: number }>,
 * }} Prefs
 */

/**
 * A seat in a room, as kept for the room's code.
 * @typedef {{ code: string, token: string, seat: number | null, spectator: boolean, name?: string, you?: string | null, saved?: number }} RoomCreds
 */

/**
 * The last state and version seen in a room (room.js writes it; the state is the room
 * model's, read back unchecked).
 * @typedef {{ token: string, v: number, epoch: unknown, state: unknown, legal?: unknown, legalV?: number }} RoomCache
 */

/**
 * The Devil's Grip game in progress, as grip-link.js keeps it (its id and token are null
 * until a game started offline exists on the server).
 * @typedef {import('../grip/sync/grip-sync-types.js').SavedGame} GripGameSaved
 */

/**
 * A Devil's Grip game saved before the page played moves itself: only its id, its token
 * and whether it is the daily deal (grip-start.js fetches its record from the server).
 * @typedef {{ id: string, token: string, daily?: boolean, number?: undefined, passes?: undefined, acked?: undefined }} GripGameSavedBefore
 */

/**
 * A Devil's Grip game this browser played.
 * @typedef {{ id: string, token: string, number: number | null | undefined, passes: number | null, daily: boolean, over: boolean, score: number | null, won: boolean, at: number }} PlayedGrip
 */

// `store` is a function giving the Storage: even asking for it can throw.
/**
 * @param {() => Storage} store
 * @param {string} key
 * @returns {unknown} the parsed JSON, null when absent or unreadable
 */
function read(store, key) {
  try {
    const raw = store().getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * @param {() => Storage} store
 * @param {string} key
 * @param {unknown} value null or undefined removes the key
 */
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

/** @returns {Partial<Prefs>} */
function readPrefs() {
  return /** @type {Partial<Prefs>} */ (read(local, 'dg.prefs') || {});
}

// Preferences: language, sound, four-colour deck, last name typed, plays read out.
/**
 * @template {keyof Prefs} K
 * @template F
 * @param {K} name
 * @param {F} fallback what to answer when nothing is saved
 * @returns {Prefs[K] | F}
 */
export function getPref(name, fallback) {
  const prefs = readPrefs();
  return name in prefs ? /** @type {Prefs[K]} */ (prefs[name]) : fallback;
}

/**
 * @template {keyof Prefs} K
 * @param {K} name
 * @param {Prefs[K] | null} value
 */
export function setPref(name, value) {
  const prefs = /** @type {Record<string, unknown>} */ (readPrefs());
  prefs[name] = value;
  write(local, 'dg.prefs', prefs);
}

// Which plays at the Demon table are read out to a screen reader: 'all' (everyone's,
// the default) or 'mine' (only this player's own).
/** @returns {'all' | 'mine'} */
export function getAnnounce() {
  return getPref('announce', 'all') === 'mine' ? 'mine' : 'all';
}

/** @param {string} which 'mine', else 'all' */
export function setAnnounce(which) {
  setPref('announce', which === 'mine' ? 'mine' : 'all');
}

// A seat in a room: {code, token, seat, spectator, name}. Kept in localStorage so that
// a reload (or reopening the room link later) returns to the same seat.
/**
 * @param {string} code
 * @returns {RoomCreds | null}
 */
export function getRoomCreds(code) {
  return /** @type {RoomCreds | null} */ (read(local, `dg.room.${code}`));
}

/**
 * @param {string} code
 * @param {RoomCreds | null} creds
 */
export function setRoomCreds(code, creds) {
  write(local, `dg.room.${code}`, creds ? { ...creds, saved: Date.now() } : null);
  pruneRooms();
}

// Every seat kept, in no particular order (the home page asks for their finished matches).
/** @returns {RoomCreds[]} */
export function listRoomCreds() {
  /** @type {(RoomCreds | null)[]} */
  const found = [];
  try {
    for (let i = 0; i < local().length; i++) {
      const key = local().key(i);
      if (key && key.startsWith('dg.room.')) found.push(/** @type {RoomCreds | null} */ (read(local, key)));
    }
  } catch {
    // storage unavailable: no seats
  }
  return found.filter(/** @returns {creds is RoomCreds} */ (creds) => Boolean(creds));
}

function pruneRooms() {
  // keep the twenty most recent rooms
  try {
    /** @type {[string, number][]} */
    const keys = [];
    for (let i = 0; i < local().length; i++) {
      const key = local().key(i);
      if (key && key.startsWith('dg.room.')) keys.push([key, /** @type {Partial<RoomCreds>} */ (read(local, key) || {}).saved || 0]);
    }
    keys.sort((a, b) => b[1] - a[1]);
    for (const [key] of keys.slice(20)) local().removeItem(key);
  } catch {
    // ignore
  }
}

// The last state and version seen in a room, per tab: a reload sends this `v` in its
// hello and gets only the events it missed.
/**
 * @param {string} code
 * @returns {RoomCache | null}
 */
export function getRoomCache(code) {
  return /** @type {RoomCache | null} */ (read(session, `dg.cache.${code}`));
}

/**
 * @param {string} code
 * @param {RoomCache | null} cache
 */
export function setRoomCache(code, cache) {
  write(session, `dg.cache.${code}`, cache);
}

// The Devil's Grip game in progress: {id, token, ...} (grip-link.js says what else), or
// one saved in the older form (only its id and token).
/** @returns {GripGameSaved | GripGameSavedBefore | null} */
export function getGripGame() {
  return /** @type {GripGameSaved | GripGameSavedBefore | null} */ (read(local, 'dg.grip.current'));
}

// A game the server holds that this page leaves for another (a new deal) is kept in the
// list of played games as left unfinished, when the server has at least one of its moves.
// The game is saved after every move: what the check needs of the one saved before is
// remembered here (`gripBefore`), not read back and parsed each time.
/** @type {ReturnType<typeof gripSummary> | undefined} */
let gripBefore; // undefined until the first save reads it

/**
 * @param {GripGameSaved | GripGameSavedBefore | null} game
 */
function gripSummary(game) {
  if (!game || !game.id || !game.token) return null;
  const moved = Boolean(game.acked && Array.isArray(game.acked.actions) && game.acked.actions.length);
  return { id: game.id, token: game.token, number: game.number, passes: game.passes ?? null,
    daily: Boolean(game.daily), moved };
}

/** @param {GripGameSaved | null} game */
export function setGripGame(game) {
  const before = gripBefore === undefined ? gripSummary(getGripGame()) : gripBefore;
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

/** @returns {PlayedGrip[]} */
export function listGripPlayed() {
  const list = read(local, 'dg.grip.played');
  return Array.isArray(list) ? list.filter((g) => g && typeof g.id === 'string' && typeof g.token === 'string') : [];
}

// `replace`: a finished game's entry replaces what was kept (a later finish, after an
// undo, has the last word); a game left unfinished never replaces a finished entry.
/**
 * @param {Omit<PlayedGrip, 'at'>} entry
 * @param {boolean} replace
 */
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
/** @returns {import('../grip/grip-stats.js').GripStats} */
export function getGripStats() {
  return normalize(read(local, 'dg.grip.stats2'));
}

/**
 * @param {import('../grip/grip-stats.js').GripResult} result
 * @returns {import('../grip/grip-stats.js').GripStats}
 */
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
/** @returns {Prefs['emoteMuted']} */
export function getMutedEmotes() {
  return getPref('emoteMuted', {});
}

/** @param {Prefs['emoteMuted']} all */
export function setMutedEmotes(all) {
  setPref('emoteMuted', all);
}
