// The player's language: which one, and t() to say things in it.
//
// Each language's strings are a module of their own (static/i18n/<code>.js), and a page
// downloads only the chosen one: this module waits for it at the top level, so every
// module that imports t() runs with the strings already there. Switching language loads
// the new table first and only then tells the page to redraw. There is no fallback to
// English: every table has every key (tests/js/i18n.test.mjs), and a missing key shows
// itself as the key.

import { setPref } from './storage.js';
import { LANGUAGES, chosenLanguage, isLanguage } from './language.js';
import { INTERNATIONAL, letterVars } from '../cards/card-letters.js';

export { LANGUAGES };

/** Values put into a text's {name} places. @typedef {Record<string, unknown>} TextVars */
/** What t() is, for modules that are given it. @typedef {(key: string, vars?: TextVars) => string} Translate */

// Where a language's table lives, next to this module (under the same versioned /static/
// prefix, so a page never mixes two versions' strings). The service worker keeps
// the chosen one once a page has asked for it.
/**
 * @param {string} code
 * @returns {string}
 */
export function languageModuleUrl(code) {
  return new URL(`../i18n/${code}.js`, import.meta.url).href;
}

/**
 * A language's strings, by key.
 * @param {string} code
 * @returns {Promise<Record<string, string>>}
 */
async function loadTable(code) {
  return (await import(languageModuleUrl(code))).default;
}

let lang = chosenLanguage();
let table = await loadTable(lang);
/** @type {Set<(code: string) => void>} */
const listeners = new Set();

export function getLang() { return lang; }

// The player's latest choice, saved at once (a page opened next, even before this
// one's new strings arrive, starts in it); of two quick choices the later one wins.
let wanted = lang;

// Resolves once the page has been told (after its new strings arrived).
/** @param {string} code */
export async function setLang(code) {
  if (!isLanguage(code) || code === wanted) return;
  wanted = code;
  setPref('lang', code);
  const next = await loadTable(code);
  if (code !== wanted) return;
  lang = code;
  table = next;
  document.documentElement.lang = code;
  listeners.forEach((fn) => fn(code));
}

/**
 * @param {(code: string) => void} fn
 * @returns {() => boolean} stops telling `fn`
 */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// A count may pick a singular form: with {n: 1}, 'key.one' is used when the language
// has it (English "1 round", "2 rounds").
/** @type {{ lang: string, rules: Intl.PluralRules } | null} */
let plurals = null;
/**
 * @param {string} key
 * @param {TextVars} [vars]
 * @returns {string | null}
 */
function pluralKey(key, vars) {
  if (!vars || typeof vars.n !== 'number') return null;
  try {
    if (!plurals || plurals.lang !== lang) plurals = { lang, rules: new Intl.PluralRules(lang) };
    return `${key}.${plurals.rules.select(vars.n)}`;
  } catch {
    return null;
  }
}

// Values every text may use without being given them: the card letters {A} {K} {Q} {J}
// ("2-5-8-{J}"), which follow the language and the player's choice (card-letters.js,
// set by settings-panel.js).
/** @type {Record<string, unknown>} */
let constants = letterVars(INTERNATIONAL);
/** @param {Record<string, unknown>} values */
export function setTextConstants(values) { constants = { ...values }; }

// t('table.beatenBy', {name: 'Ann'}) -> "Beaten by Ann!". Values are substituted as
// plain strings; the result is always used as text, never as HTML.
/** @type {Translate} */
export function t(key, vars) {
  const plural = pluralKey(key, vars);
  let text = plural ? table[plural] : undefined;
  if (text === undefined) text = table[key];
  if (text === undefined) return key;
  if (text.includes('{')) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => {
      if (vars && name in vars) return String(vars[name]);
      return Object.prototype.hasOwnProperty.call(constants, name) ? String(constants[name]) : m;
    });
  }
  return text;
}
