// The HTTP side of docs/protocol.md. Every call resolves to the parsed JSON answer or
// throws an ApiError carrying the status and the server's `detail`.

import { getPref } from './storage.js';

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status, 0 when the server could not be reached
   * @param {unknown} detail the server's `detail` (a string, or whatever it sent)
   * @param {unknown} [data]
   */
  constructor(status, detail, data = null) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
    this.data = data; // the whole answer (a refused Devil's Grip batch carries the game)
  }
}

/**
 * The parsed JSON answer. Its shape is the server's (docs/protocol.md), not checked
 * here: each call below names it (`T`).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, token?: string | null, browser?: boolean }} [options] `browser`:
 *   send the daily race's browser id, which opens today's daily replays once this
 *   browser's own race of today has ended (docs/daily.md)
 * @returns {Promise<T>}
 */
async function request(method, path, { body, token, browser } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const raced = browser ? getPref('browserId', null) : null;
  if (typeof raced === 'string' && raced) headers['X-Demon-Browser'] = raced;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network');
  }
  /** @type {unknown} */
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const answer = /** @type {{ detail?: unknown } | null} */ (data);
    const detail = answer && answer.detail !== undefined ? answer.detail : `HTTP ${response.status}`;
    throw new ApiError(response.status, Array.isArray(detail) ? detailText(detail) : detail, data);
  }
  return /** @type {T} */ (data);
}

// pydantic's 422 answers carry a list of problems; keep their messages.
/**
 * @param {unknown[]} list
 * @returns {string}
 */
function detailText(list) {
  return list.map((item) => (item && /** @type {{ msg?: string }} */ (item).msg) || String(item)).join('; ');
}

/** @typedef {import('../grip/grip-model.js').GripAnswer} GripAnswer */
/** @typedef {import('../grip/grip-model.js').GripSyncAnswer} GripSyncAnswer */
/** @typedef {import('../grip/grip-model.js').GripParAnswer} GripParAnswer */
/** @typedef {import('../grip/grip-model.js').GripSolution} GripSolution */
/** @typedef {import('../replay/replay-model.js').ReplaySummary} ReplaySummary */
/** @typedef {import('../replay/replay-model.js').DemonReplay} DemonReplay */

/**
 * The answer to creating, joining or starting a room (`SeatGrant`): the seat's token is
 * shown once.
 * @typedef {{ code: string, token: string, you: string, seat: number | null, spectator: boolean }} SeatGrant
 */

/**
 * The answers whose shapes belong to the Demon, home and daily pages that read them (a
 * room's summary, the history lists, the invite, the daily race; docs/protocol.md).
 * `any` on purpose, for now: those pages declare the shapes (room-panels.js, invite.js,
 * home.js, daily.js are typed in parallel with this module) and this module must not
 * import their page modules; once their typedefs exist, name them here instead.
 * @typedef {any} PageAnswer
 */

/** @typedef {{ op: 'action', action: import('../grip/grip-rules.js').Action } | { op: 'undo' | 'redo' | 'hint' | 'end' }} GripRequest */

export const api = {
  /** @type {(name: string, options: object) => Promise<SeatGrant>} */
  createRoom: (name, options) => request('POST', '/api/rooms', { body: { name, ...options } }),
  /** @type {(code: string) => Promise<PageAnswer>} */
  getRoom: (code) => request('GET', `/api/rooms/${encodeURIComponent(code)}`, { browser: true }),
  // `seatOnly`: a seat in an open lobby or a refusal (409), never a spectator's place
  // ("Play now" sent the page to another process's table)
  /** @type {(code: string, name: string, seatOnly?: boolean) => Promise<SeatGrant>} */
  joinRoom: (code, name, seatOnly = false) => request('POST', `/api/rooms/${encodeURIComponent(code)}/join`,
    { body: seatOnly ? { name, seat_only: true } : { name }, browser: true }),
  // `game`: `{game, house_rules}` for a Nerts room (racing/game-options.js wireFields), else nothing
  /** @type {(name: string, bots: number, level: string, rounds: number, game?: object) => Promise<SeatGrant>} */
  practiceRoom: (name, bots, level, rounds, game = {}) => request('POST', '/api/rooms/practice',
    { body: { name, bots, level, rounds, ...game } }),
  /** @type {() => Promise<PageAnswer>} */
  history: () => request('GET', '/api/history'),
  // The finished matches played from this seat (the token proves it; docs/security.md).
  /** @type {(code: string, token: string) => Promise<PageAnswer>} */
  seatHistory: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/history`,
    { body: { token } }),
  /** @type {() => Promise<PageAnswer>} */
  invite: () => request('GET', '/api/invite'),
  /** @type {(body?: { number?: number | null, daily?: boolean, passes?: number | null, winnable?: boolean }) => Promise<GripAnswer>} */
  newGrip: (body = {}) => request('POST', '/api/grip', { body }),
  /** @type {(id: string, token: string | null) => Promise<GripAnswer>} */
  getGrip: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}`, { token }),
  /** @type {(id: string, token: string | null, body: GripRequest) => Promise<GripAnswer>} */
  gripOp: (id, token, body) => request('POST', `/api/grip/${encodeURIComponent(id)}`,
    { body, token }),
  /** @type {(id: string, token: string | null) => Promise<GripSyncAnswer>} */
  gripSync: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/sync`, { token }),
  /** @type {(id: string, token: string | null, body: object) => Promise<GripSyncAnswer>} */
  gripMoves: (id, token, body) => request('POST', `/api/grip/${encodeURIComponent(id)}/moves`, { body, token }),
  /** @type {(id: string, token: string | null) => Promise<GripParAnswer>} */
  gripPar: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/par`, { token }),
  /** @type {(browser: string) => Promise<PageAnswer>} */
  daily: (browser) => request('GET', `/api/daily?browser=${encodeURIComponent(browser)}`),
  /** @type {(name: string, level: string, browser: string) => Promise<SeatGrant>} */
  startDaily: (name, level, browser) => request('POST', '/api/daily', { body: { name, level, browser } }),
  /** @type {(code: string, token: string | null) => Promise<{ replays: ReplaySummary[] }>} */
  replays: (code, token) => request('GET', `/api/replays?code=${encodeURIComponent(code)}`, { token, browser: true }),
  /** @type {(id: string, token: string | null) => Promise<DemonReplay>} */
  replay: (id, token) => request('GET', `/api/replays/${encodeURIComponent(id)}`, { token, browser: true }),
  /** @type {(id: string, token: string | null, shared: boolean) => Promise<{ shared: boolean }>} */
  shareReplay: (id, token, shared) => request('POST', `/api/replays/${encodeURIComponent(id)}/share`,
    { body: { shared }, token }),
  /** @type {(id: string, token: string | null) => Promise<GripSolution>} */
  gripSolution: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/solution`, { token }),
};
