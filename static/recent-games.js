// The home page's recent games: whose are shown (docs/security.md, "Who sees which games").
// A visitor sees the finished matches they played in (the seats this browser keeps, each
// asked for with its token) and those of rooms whose host listed them (GET /api/history).
// Pure functions; home.js does the asking.

import { gameOf } from './racing/game-options.js';

export const MAX_SEATS_ASKED = 10; // the most recent seats this browser keeps
export const MAX_SHOWN = 10;

// Which kept seats to ask about: people's seats (a spectator played no match), newest
// first, at most MAX_SEATS_ASKED of them. `creds` as storage.js keeps them.
/**
 * @template {{code?: unknown, token?: unknown, spectator?: boolean, saved?: number} | null | undefined} C
 * @param {C[]} creds
 * @returns {C[]}
 */
export function seatsToAsk(creds) {
  return creds
    .filter((c) => c && typeof c.code === 'string' && typeof c.token === 'string' && !c.spectator)
    .sort((a, b) => (/** @type {NonNullable<C>} */ (b).saved || 0) - (/** @type {NonNullable<C>} */ (a).saved || 0))
    .slice(0, MAX_SEATS_ASKED);
}

// One list, newest first, each match once (a listed match of one's own comes in both
// answers): `lists` are the answers' `games` arrays; a match is its room code and end time.
/**
 * A finished match of GET /api/history (docs/protocol.md); `bot` is a computer player's
 * level (absent in matches recorded before bots).
 * @typedef {object} RecentGame
 * @property {string} code
 * @property {number} finished_at seconds
 * @property {{id: string, name: string, total: number, bot?: string | null}[]} players
 * @property {unknown[]} rounds
 * @property {string[]} winners player ids
 * @property {string} [game] 'nerts' for a Nerts match; absent for Demon (and before Nerts)
 */

/**
 * @param {unknown[]} lists each answer's `games` (anything else counts as none)
 * @returns {RecentGame[]}
 */
export function mergeRecent(lists) {
  /** @type {Map<string, RecentGame>} */
  const byKey = new Map();
  for (const list of lists) {
    /** @type {unknown[]} */
    const games = Array.isArray(list) ? list : [];
    for (const item of games) {
      const game = /** @type {RecentGame | null} */ (item);
      if (game && typeof game.code === 'string') byKey.set(`${game.code}@${game.finished_at}`, game);
    }
  }
  return [...byKey.values()].sort((a, b) => (b.finished_at || 0) - (a.finished_at || 0)).slice(0, MAX_SHOWN);
}

// Which game a finished match was: the server names it (`game`), and a match without one
// is Demon's (every match recorded before Nerts).
/**
 * @param {RecentGame} game
 * @returns {import('./racing/game-options.js').Game}
 */
export function gameOfMatch(game) {
  return gameOf(game);
}

// When a match finished, as a row shows it: the date and the minute in the page's
// language ("7 Dec 2026, 09:24"), no seconds (the row was cramped with them); null for a
// time that is not one.
/**
 * @param {number} seconds the match's `finished_at`
 * @param {string} lang
 * @returns {{iso: string, text: string} | null}
 */
export function recentWhen(seconds, lang) {
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return null;
  return { iso: date.toISOString(), text: new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(date) };
}
