// The id this browser races the daily race under: random, kept with the preferences,
// never shown. The server keeps only its hash; it is the browser's one counted attempt a
// day, and what opens today's replays once its own race has ended (docs/daily.md).

import { getPref, setPref } from '../common/storage.js';

/** @returns {string} */
export function browserId() {
  let id = getPref('browserId', null);
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    setPref('browserId', id);
  }
  return id;
}
