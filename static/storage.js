// Everything the browser remembers, in one place. Storage can be full or forbidden
// (private windows): every access is wrapped so the game still works without it.

function read(store, key) {
  try {
    const raw = store.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(store, key, value) {
  try {
    if (value === null || value === undefined) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch {
    // quota or privacy mode: forget silently
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

// Preferences: language, sound, four-colour deck, last name typed.
export function getPref(name, fallback) {
  const prefs = read(local(), 'dg.prefs') || {};
  return name in prefs ? prefs[name] : fallback;
}

export function setPref(name, value) {
  const prefs = read(local(), 'dg.prefs') || {};
  prefs[name] = value;
  write(local(), 'dg.prefs', prefs);
}

// A seat in a room: {code, token, seat, spectator, name}. Kept in localStorage so that
// a reload (or reopening the room link later) returns to the same seat.
export function getRoomCreds(code) {
  return read(local(), `dg.room.${code}`);
}

export function setRoomCreds(code, creds) {
  write(local(), `dg.room.${code}`, creds ? { ...creds, saved: Date.now() } : null);
  pruneRooms();
}

function pruneRooms() {
  // keep the twenty most recent rooms
  try {
    const keys = [];
    for (let i = 0; i < local().length; i++) {
      const key = local().key(i);
      if (key && key.startsWith('dg.room.')) keys.push([key, (read(local(), key) || {}).saved || 0]);
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
  return read(session(), `dg.cache.${code}`);
}

export function setRoomCache(code, cache) {
  write(session(), `dg.cache.${code}`, cache);
}

// The Devil's Grip game in progress: {id, token}.
export function getGripGame() {
  return read(local(), 'dg.grip.current');
}

export function setGripGame(game) {
  write(local(), 'dg.grip.current', game);
}

// Devil's Grip statistics. Deals played with undo are kept apart (rule 12).
export function getGripStats() {
  const stats = read(local(), 'dg.grip.stats');
  const empty = () => ({ played: 0, won: 0, best: null, total: 0 });
  return {
    clean: { ...empty(), ...(stats && stats.clean) },
    undo: { ...empty(), ...(stats && stats.undo) },
    counted: (stats && Array.isArray(stats.counted)) ? stats.counted : [],
  };
}

export function recordGripResult(id, score, won, usedUndo) {
  const stats = getGripStats();
  if (stats.counted.includes(id)) return stats;
  const bucket = usedUndo ? stats.undo : stats.clean;
  bucket.played += 1;
  bucket.total += score;
  if (won) bucket.won += 1;
  if (bucket.best === null || score < bucket.best) bucket.best = score;
  stats.counted = [...stats.counted, id].slice(-200);
  write(local(), 'dg.grip.stats', stats);
  return stats;
}

export function resetGripStats() {
  write(local(), 'dg.grip.stats', null);
}
