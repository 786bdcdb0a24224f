// Emotes ("Say hello": a greeting over a seat), as plain data: the fixed set the server accepts, the
// cooldown the buttons show, whose emotes this browser hides, where an emote floats and
// what a screen reader hears. Pure: no DOM, no storage; emotes.js draws and keeps them.

// The server's set (app/protocol/messages.py `EmoteName`), in the order of the bar.
export const EMOTES = ['wave', 'thumbs_up', 'laugh', 'wow', 'sad', 'gg'];

// The server lets a player send one emote every 1.5 s (app/rooms/emotes.py); the buttons
// rest a little longer, so a tap they allow is never refused for a network delay.
export const COOLDOWN_MS = 2000;

// How long an emote floats over its seat.
export const SHOW_MS = 2600;

// Milliseconds before the next emote may be sent: `sentAt` is when the last one was sent
// (or when the server's copy of it came back, which restarts the wait), null for never.
/**
 * @param {number | null | undefined} sentAt
 * @param {number} now
 * @param {number} [ms]
 */
export function cooldownLeft(sentAt, now, ms = COOLDOWN_MS) {
  if (sentAt === null || sentAt === undefined) return 0;
  return Math.max(0, sentAt + ms - now);
}

// Muted players are kept per room, as {code: {ids: [player ids], at: time}}: a player id
// means someone only within one room. The most recently changed rooms are kept.
export const MAX_MUTED_ROOMS = 20;

/** @typedef {Record<string, {ids: string[], at: number}>} MutedRooms */

/**
 * What storage held, as the rooms' table ({} for anything else).
 * @param {unknown} all
 * @returns {MutedRooms}
 */
function roomsOf(all) {
  return /** @type {MutedRooms} */ (all && typeof all === 'object' && !Array.isArray(all) ? all : {});
}

/**
 * @param {unknown} all
 * @param {string} code
 * @returns {Set<string>}
 */
export function mutedIn(all, code) {
  const entry = roomsOf(all)[code];
  /** @type {unknown[]} */
  const ids = entry && Array.isArray(entry.ids) ? entry.ids : [];
  return new Set(ids.filter((id) => typeof id === 'string'));
}

// A new table with `id` muted (or unmuted) in room `code`; the input is left alone.
/**
 * @param {unknown} all
 * @param {string} code
 * @param {string} id
 * @param {boolean} muted
 * @param {number} now
 * @returns {MutedRooms}
 */
export function setMuted(all, code, id, muted, now) {
  const ids = mutedIn(all, code);
  if (muted) ids.add(id); else ids.delete(id);
  const rooms = { ...roomsOf(all) };
  if (ids.size) rooms[code] = { ids: [...ids].sort(), at: now };
  else delete rooms[code];
  const keep = Object.entries(rooms).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, MAX_MUTED_ROOMS);
  return Object.fromEntries(keep);
}

// Where an emote from player `id` floats on this screen: over the sender's row in the
// lobby, over your own layout when it is yours, over their panel at the table; null for
// somebody not seated (nothing to float over) or somebody this browser hides. `view` is
// 'lobby' or 'table' (room-model.js viewKind).
/**
 * @param {import('./protocol-types.js').RoomState | null} state
 * @param {{id: string, you: string | null, view: string | null, muted?: Set<string> | null}} who
 * @returns {{kind: 'row' | 'mine' | 'opp', seat: number} | null}
 */
export function emoteTarget(state, { id, you, view, muted }) {
  const player = (state && state.players || []).find((p) => p.id === id);
  if (!player || player.left || player.seat === null || player.seat === undefined) return null;
  if (id !== you && muted && muted.has(id)) return null;
  if (view === 'lobby') return { kind: 'row', seat: player.seat };
  if (id === you) return { kind: 'mine', seat: player.seat };
  return { kind: 'opp', seat: player.seat };
}

// What a screen reader hears: "Bob: Wave" ("You: Wave" for your own).
/**
 * @param {string} emote
 * @param {{t: (key: string, vars?: Record<string, unknown>) => string, name: string}} words
 * @returns {string | null}
 */
export function emoteWords(emote, { t, name }) {
  if (!EMOTES.includes(emote)) return null;
  return t('emote.said', { name, emote: t(`emote.${emote}`) });
}
