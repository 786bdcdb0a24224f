// Open tables and "Play now" as the home page and the lobby read them (docs/protocol.md,
// "Open tables"), pure: no DOM, the time and the words (`t`) passed in. A table the page
// does not understand is left out of the list rather than shown half.

import { gameLine } from '../racing/game-options.js';
import { LANGUAGES } from '../common/language.js';

/** @typedef {import('../racing/game-options.js').Translate} Translate */
/** @typedef {import('../racing/game-options.js').Game} Game */

/**
 * One open table of GET /api/tables.
 * @typedef {object} OpenTable
 * @property {string} code
 * @property {Game} game
 * @property {Record<string, unknown> | null} house_rules Nerts' house rules; null for Demon
 * @property {number} players people seated
 * @property {number} bots bots seated
 * @property {number} max_players
 * @property {boolean} started a round is on (or between rounds): it can be watched
 * @property {string} language the host's page language
 * @property {string} host the host's name
 * @property {boolean} play_now opened by "Play now"
 * @property {number | null} fill_at epoch ms when its lobby fills with bots and starts
 */

/**
 * The list as the page keeps it.
 * @typedef {{ enabled: boolean, refreshS: number, tables: OpenTable[] }} TableList
 */

/** The quickest and slowest polls, whatever the server says (seconds). */
export const REFRESH_BOUNDS = Object.freeze({ min: 2, max: 60, fallback: 5 });

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/**
 * @param {unknown} n
 * @returns {n is number}
 */
function isCount(n) {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

// A poll that failed waits longer each time, up to this many intervals.
const MOST_BACKOFF = 6;

// When to ask for the list again (ms), or null: not while the page is hidden (it asks
// at once when shown again), and never once the server said open tables are off.
/**
 * @param {TableList | null} list the last answer (null: none yet)
 * @param {boolean} visible document.visibilityState is 'visible'
 * @param {number} failures polls that failed in a row
 * @returns {number | null}
 */
export function nextPoll(list, visible, failures) {
  if (!visible || (list !== null && !list.enabled)) return null;
  const refreshS = list ? list.refreshS : REFRESH_BOUNDS.fallback;
  return refreshS * 1000 * Math.min(MOST_BACKOFF, 1 + failures);
}

// One table as it came, or null when the page cannot show it.
/**
 * @param {unknown} raw
 * @returns {OpenTable | null}
 */
export function readTable(raw) {
  if (!isObject(raw)) return null;
  const { code, game, players, bots, max_players: max, started, language, host } = raw;
  if (typeof code !== 'string' || !/^[A-Z0-9]{1,32}$/.test(code)) return null;
  if (game !== 'demon' && game !== 'nerts') return null;
  if (!isCount(players) || !isCount(bots) || !isCount(max) || max < 1) return null;
  const fill = raw.fill_at;
  return {
    code,
    game,
    house_rules: game === 'nerts' && isObject(raw.house_rules) ? raw.house_rules : null,
    players,
    bots,
    max_players: max,
    started: started === true,
    language: typeof language === 'string' ? language : '',
    host: typeof host === 'string' ? host : '',
    play_now: raw.play_now === true,
    fill_at: typeof fill === 'number' && Number.isFinite(fill) ? fill : null,
  };
}

// GET /api/tables' answer as the page keeps it; one that is not an answer is a list
// that is off (nothing shown), not an error on the page.
/**
 * @param {unknown} answer
 * @returns {TableList}
 */
export function readTables(answer) {
  if (!isObject(answer)) return { enabled: false, refreshS: REFRESH_BOUNDS.fallback, tables: [] };
  const refresh = answer.refresh_s;
  const refreshS = typeof refresh === 'number' && Number.isFinite(refresh)
    ? Math.min(REFRESH_BOUNDS.max, Math.max(REFRESH_BOUNDS.min, refresh)) : REFRESH_BOUNDS.fallback;
  const list = Array.isArray(answer.tables) ? answer.tables : [];
  /** @type {OpenTable[]} */
  const tables = [];
  const seen = new Set();
  for (const raw of list) {
    const table = readTable(raw);
    if (table && !seen.has(table.code)) { seen.add(table.code); tables.push(table); }
  }
  return { enabled: answer.enabled === true, refreshS, tables };
}

// What a row is drawn from (common/keyed.js compares parts with Object.is, and each
// poll parses new objects): every field, as text.
/**
 * @param {OpenTable} table
 * @param {string} lang the page's language (a row is redrawn in a new one)
 * @returns {[string, string]}
 */
export function tableParts(table, lang) {
  return [JSON.stringify(table), lang];
}

// What a visitor can do at a table: sit down in a lobby's free seat, or watch a round.
/**
 * @param {OpenTable} table
 * @returns {'join' | 'watch' | null}
 */
export function actionOf(table) {
  if (table.started) return 'watch';
  return table.players + table.bots < table.max_players ? 'join' : null;
}

// The game in words: "Demon", or "Nerts · draw 1 · Racing Demon spaces".
/**
 * @param {OpenTable} table
 * @param {Translate} t
 */
export function gameWords(table, t) {
  return gameLine(table.game === 'nerts' ? { game: 'nerts', house_rules: table.house_rules || {} } : {}, t);
}

// Who sits there: "3 of 4 seats: 2 people, 1 bot" (no bots: not said).
/**
 * @param {OpenTable} table
 * @param {Translate} t
 */
export function seatWords(table, t) {
  const taken = table.players + table.bots;
  const who = [t('tables.people', { n: table.players })];
  if (table.bots) who.push(t('tables.bots', { n: table.bots }));
  return t('tables.seats', { taken, max: table.max_players, who: who.join(', ') });
}

// The host's language by its own name ("Deutsch"), else its code.
/** @param {string} code */
export function languageName(code) {
  const known = LANGUAGES.find(([c]) => c === code);
  return known ? known[1] : code;
}

// The tables that appeared since the last poll (a screen reader is told of those).
/**
 * @param {ReadonlySet<string>} seen
 * @param {readonly OpenTable[]} tables
 * @returns {OpenTable[]}
 */
export function newTables(seen, tables) {
  return tables.filter((table) => !seen.has(table.code));
}

// Whole seconds until `fillAt` (epoch ms), never below 0; null when there is no fill.
/**
 * @param {number | null | undefined} fillAt
 * @param {number} now epoch ms
 * @returns {number | null}
 */
export function secondsLeft(fillAt, now) {
  if (typeof fillAt !== 'number' || !Number.isFinite(fillAt)) return null;
  return Math.max(0, Math.ceil((fillAt - now) / 1000));
}

// The lobby's line while a play-now table waits for people: "Bots fill the empty seats
// and the game starts in 14 s"; null when no fill is coming.
/**
 * @param {number | null | undefined} fillAt
 * @param {number} now epoch ms
 * @param {Translate} t
 * @returns {string | null}
 */
export function fillText(fillAt, now, t) {
  const s = secondsLeft(fillAt, now);
  if (s === null) return null;
  return s > 0 ? t('tables.fillIn', { s }) : t('tables.fillNow');
}

// A `room` event's state with `open` and `fill_at` stated: the server leaves them out
// when they do not hold, and the page takes a room event's keys over its own, so a key
// left out would keep its old value (a closed table still "open").
/**
 * @template {Record<string, unknown>} S
 * @param {S} state
 * @returns {S & { open: boolean, fill_at: number | null }}
 */
export function withOpenKeys(state) {
  const fill = state.fill_at;
  return { ...state, open: state.open === true, fill_at: typeof fill === 'number' && Number.isFinite(fill) ? fill : null };
}

// What POST /api/play-now's answer says to do: go to the seat it gave, or join the
// table it names on another process (POST /api/rooms/CODE/join); null: neither.
/**
 * @param {unknown} answer
 * @returns {{ kind: 'seat', code: string } | { kind: 'join', code: string } | null}
 */
export function playNowStep(answer) {
  if (!isObject(answer)) return null;
  if (typeof answer.code === 'string' && typeof answer.token === 'string' && answer.code) {
    return { kind: 'seat', code: answer.code };
  }
  if (typeof answer.join === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(answer.join)) {
    return { kind: 'join', code: answer.join.toUpperCase() };
  }
  return null;
}

// "Play now" sent the page to another process's lobby, whose join was refused with
// `status`: press again, naming that table in `avoid`, when a new press can do better
// (403: this address was removed there; 404: gone; 409: no free seat any more, as the
// list it was chosen from was a second or two old), at most `PLAY_NOW_TRIES` presses in all.
export const PLAY_NOW_TRIES = 3;
/**
 * @param {number} status
 * @param {number} presses made so far
 * @returns {boolean}
 */
export function pressAgain(status, presses) {
  return presses < PLAY_NOW_TRIES && (status === 403 || status === 404 || status === 409);
}

// A refused "Play now"'s words by its status (an i18n key); null: the server's own.
/**
 * @param {number} status
 * @returns {string | null}
 */
export function playNowErrorKey(status) {
  if (status === 404) return 'tables.off';
  if (status === 429) return 'tables.tooMany';
  if (status === 503) return 'tables.full';
  if (status === 0) return 'error.network';
  return null;
}
