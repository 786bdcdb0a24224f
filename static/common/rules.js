// The rules dialog, in the page's language. For each game (Demon, Nerts, Devil's Grip): a
// one-screen "How to play" with small card pictures, then the full rules behind an
// expander. The texts are static files, static/rules/<lang>/<game>.howto.md and
// <game>.md (same sections, same ids in every language: tests/js/rules_i18n.test.mjs);
// only the chosen language's two files of the game on show are fetched, each once.

import { h, modal, replaceChildren } from './dom.js';
import { LANGUAGES, getLang, t } from './i18n.js';
import { backEl, cardEl } from '../cards/cards.js';
import { markdownToDom } from './markdown.js';
import { showAgainButton } from '../guide/guide.js';

// Every language of the page has its rules (tests/js/rules_i18n.test.mjs checks the folders).
export const RULES_LANGS = LANGUAGES.map(([code]) => code);
// Each game's rules key (its files' names) and the label of its tab. Nerts is played at
// Demon's table, so its tab sits next to Demon's.
export const RULES_GAMES = [['demon', 'home.demonTitle'], ['nerts', 'home.nertsTitle'],
  ['devils-grip', 'home.gripTitle']];

/** The game the page is showing, when its path does not say (see setRulesGame). @type {string | null} */
let pageGame = null;

/**
 * The page says which game it shows, so the rules open on it: Demon's table calls this
 * with 'nerts' in a Nerts room and with null when it leaves the room. Without it the
 * path decides (Devil's Grip on /grip, Demon elsewhere). An unknown key is refused.
 * @param {string | null} game a key of RULES_GAMES, or null
 */
export function setRulesGame(game) {
  if (game !== null && !isRulesGame(game)) throw new Error(`no rules for the game ${JSON.stringify(game)}`);
  pageGame = game;
}

/**
 * @param {unknown} game
 * @returns {game is string}
 */
function isRulesGame(game) {
  return RULES_GAMES.some(([id]) => id === game);
}

/** @type {Map<string, Promise<string>>} */
const texts = new Map();

/**
 * @param {string} lang
 * @param {string} file
 * @returns {string}
 */
export function rulesUrl(lang, file) {
  return new URL(`../rules/${lang}/${file}`, import.meta.url).href;
}

/**
 * @param {string} lang
 * @param {string} file
 * @returns {Promise<string>}
 */
function fetchText(lang, file) {
  const key = `${lang}/${file}`;
  if (!texts.has(key)) {
    const load = fetch(rulesUrl(lang, file)).then((res) => {
      if (!res.ok) throw new Error(`${key}: ${res.status}`);
      return res.text();
    });
    load.catch(() => texts.delete(key)); // a failed load is tried again next time
    texts.set(key, load);
  }
  return /** @type {Promise<string>} */ (texts.get(key));
}

// "# Title\n..." -> {title, body}
/**
 * @param {string} markdown
 * @returns {{ title: string, body: string }}
 */
export function splitTitle(markdown) {
  const m = /^\s*#\s+(.*?)(?:\s+\{#[a-z0-9-]+\})?\s*(?:\n|$)/.exec(markdown);
  return m ? { title: m[1], body: markdown.slice(m[0].length) } : { title: '', body: markdown };
}

/**
 * @param {string[]} codes
 * @returns {HTMLSpanElement}
 */
function cardRow(codes) {
  return h('span', { class: 'rules-cards' },
    ...codes.map((code) => (code === '##' ? backEl(0, { mini: true }) : cardEl(code, { mini: true }))));
}

function ensureStyle() {
  if (document.querySelector('link[data-rules-css]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: new URL('../styles/rules.css', import.meta.url).href,
    dataset: { rulesCss: '' } }));
}

function defaultGame() {
  if (pageGame) return pageGame;
  return window.location.pathname.startsWith('/grip') ? 'devils-grip' : 'demon';
}

/** @param {string} [game] a key of RULES_GAMES: 'demon', 'nerts' or 'devils-grip' */
export function showRules(game = defaultGame()) {
  ensureStyle();
  const lang = RULES_LANGS.includes(getLang()) ? getLang() : 'en';
  const content = h('div', { class: 'rules-game' });
  const tabs = RULES_GAMES.map(([id, label]) => h('button', {
    type: 'button', class: 'rules-tab', dataset: { game: id }, text: t(label),
    onclick: () => show(id),
  }));
  const body = h('div', { class: 'rules-text', lang },
    h('div', { class: 'rules-tabs', role: 'group' }, ...tabs), content);
  const dialog = modal(t('rules.title'), body, { wide: true });
  const again = showAgainButton(() => dialog.close()); // the page's first-round guide
  if (again) body.prepend(again);

  /** @type {string | null} */
  let shown = null;
  /** @param {string} id */
  function show(id) {
    shown = id;
    tabs.forEach((tab) => tab.setAttribute('aria-pressed', String(tab.dataset.game === id)));
    content.setAttribute('aria-busy', 'true');
    replaceChildren(content, h('p', { text: t('rules.loading') }));
    Promise.all([fetchText(lang, `${id}.howto.md`), fetchText(lang, `${id}.md`)]).then(([howto, full]) => {
      if (shown !== id) return;
      content.removeAttribute('aria-busy');
      if (!howto.trim() || !full.trim()) {
        replaceChildren(content, h('p', { text: t('rules.missing') }));
        return;
      }
      const options = { cards: cardRow };
      const intro = splitTitle(howto);
      const rules = splitTitle(full);
      replaceChildren(content,
        h('section', { class: 'rules-howto', dataset: { game: id } },
          h('h3', { class: 'rules-howto-title', text: intro.title }), markdownToDom(intro.body, options)),
        h('details', { class: 'rules-full', dataset: { game: id } },
          h('summary', { text: rules.title }), markdownToDom(rules.body, options)));
    }).catch(() => {
      if (shown !== id) return;
      content.removeAttribute('aria-busy');
      replaceChildren(content, h('p', { class: 'error', text: t('rules.failed') }));
    });
  }
  show(isRulesGame(game) ? game : 'demon');
}
