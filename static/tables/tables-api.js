// The two requests of open tables (docs/protocol.md, "Open tables"): the list, asked for
// with the ETag of the last answer (the server answers 304 when nothing changed, which
// is most polls: a visitor reading the home page costs it a few bytes every few
// seconds), and "Play now". Apart from common/api.js because that one has no
// conditional request; errors are its ApiError all the same.

import { ApiError } from '../common/api.js';

/**
 * @param {Response} response
 * @returns {Promise<unknown>}
 */
async function json(response) {
  const text = await response.text();
  try { return text ? JSON.parse(text) : null; } catch { return null; }
}

/**
 * @param {Response} response
 * @param {unknown} data
 */
function failure(response, data) {
  const detail = data && typeof data === 'object' && 'detail' in data ? /** @type {{detail: unknown}} */ (data).detail : null;
  return new ApiError(response.status, typeof detail === 'string' ? detail : `HTTP ${response.status}`, data);
}

// GET /api/tables: `{changed: false}` on a 304, else the answer and its ETag.
/**
 * @param {string | null} etag the last answer's
 * @returns {Promise<{ changed: false } | { changed: true, etag: string | null, data: unknown }>}
 */
export async function fetchTables(etag) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  let response;
  try {
    // no-store: the page does its own conditional request, and reads the 304 itself
    response = await fetch('/api/tables', { headers, cache: 'no-store', credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network');
  }
  if (response.status === 304) return { changed: false };
  const data = await json(response);
  if (!response.ok) throw failure(response, data);
  return { changed: true, etag: response.headers.get('ETag'), data };
}

/**
 * @typedef {{ name: string, level: string, language: string, game: 'demon' | 'nerts' }} PlayNowBody
 */

// POST /api/play-now: the answer as it came (tables-model.js playNowStep reads it).
/**
 * @param {PlayNowBody} body
 * @returns {Promise<unknown>}
 */
export async function postPlayNow(body) {
  let response;
  try {
    response = await fetch('/api/play-now', { method: 'POST', cache: 'no-store', credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network');
  }
  const data = await json(response);
  if (!response.ok) throw failure(response, data);
  return data;
}
