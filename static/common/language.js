// Which languages the app speaks and which one this player gets, without loading any
// strings: the offline page (static/common/notice.js) needs only the choice, and must work from
// the service worker's cache without a language table.

import { getPref } from './storage.js';

/** @type {[code: string, name: string][]} */
export const LANGUAGES = [
  ['en', 'English'],
  ['ro', 'Română'],
  ['de', 'Deutsch'],
  ['fi', 'Suomi'],
  ['ru', 'Русский'],
];

const CODES = LANGUAGES.map(([code]) => code);

/**
 * @param {unknown} code
 * @returns {code is string}
 */
export function isLanguage(code) {
  return CODES.includes(/** @type {string} */ (code));
}

// The saved choice, else the first of the browser's languages the app speaks, else English.
/** @returns {string} */
export function chosenLanguage() {
  const saved = getPref('lang', null);
  if (saved && isLanguage(saved)) return saved;
  if (typeof navigator === 'undefined') return 'en';
  const wanted = [...(navigator.languages || []), navigator.language || ''];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}
