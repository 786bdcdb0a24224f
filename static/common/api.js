// The HTTP side of docs/protocol.md. Every call resolves to the parsed JSON answer or
// throws an ApiError carrying the status and the server's `detail`.

export class ApiError extends Error {
  constructor(status, detail, data = null) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
    this.data = data; // the whole answer (a refused Devil's Grip batch carries the game)
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
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
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const detail = data && data.detail !== undefined ? data.detail : `HTTP ${response.status}`;
    throw new ApiError(response.status, Array.isArray(detail) ? detailText(detail) : detail, data);
  }
  return data;
}

// pydantic's 422 answers carry a list of problems; keep their messages.
function detailText(list) {
  return list.map((item) => (item && item.msg) || String(item)).join('; ');
}

export const api = {
  createRoom: (name, options) => request('POST', '/api/rooms', { body: { name, ...options } }),
  getRoom: (code) => request('GET', `/api/rooms/${encodeURIComponent(code)}`),
  joinRoom: (code, name) => request('POST', `/api/rooms/${encodeURIComponent(code)}/join`,
    { body: { name } }),
  practiceRoom: (name, bots, level, rounds) => request('POST', '/api/rooms/practice',
    { body: { name, bots, level, rounds } }),
  history: () => request('GET', '/api/history'),
  // The finished matches played from this seat (the token proves it; docs/security.md).
  seatHistory: (code, token) => request('POST', `/api/rooms/${encodeURIComponent(code)}/history`,
    { body: { token } }),
  invite: () => request('GET', '/api/invite'),
  newGrip: (body = {}) => request('POST', '/api/grip', { body }),
  getGrip: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}`, { token }),
  gripOp: (id, token, body) => request('POST', `/api/grip/${encodeURIComponent(id)}`,
    { body, token }),
  gripSync: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/sync`, { token }),
  gripMoves: (id, token, body) => request('POST', `/api/grip/${encodeURIComponent(id)}/moves`, { body, token }),
  gripPar: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/par`, { token }),
  daily: (browser) => request('GET', `/api/daily?browser=${encodeURIComponent(browser)}`),
  startDaily: (name, level, browser) => request('POST', '/api/daily', { body: { name, level, browser } }),
  replays: (code, token) => request('GET', `/api/replays?code=${encodeURIComponent(code)}`, { token }),
  replay: (id, token) => request('GET', `/api/replays/${encodeURIComponent(id)}`, { token }),
  shareReplay: (id, token, shared) => request('POST', `/api/replays/${encodeURIComponent(id)}/share`,
    { body: { shared }, token }),
  gripSolution: (id, token) => request('GET', `/api/grip/${encodeURIComponent(id)}/solution`, { token }),
};
