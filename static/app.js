// The entry point: the page header (rules, settings, keys, language), and a small
// router for the three addresses the server answers with index.html:
//   /            home
//   /r/{CODE}    a Demon room (lobby or table)
//   /grip        Devil's Grip
//   /replay/{CODE}/{id}  a finished Demon round watched again (replay/replay.js)
//   /grip/replay/{id}    a Devil's Grip game of one's own watched again (replay/grip-viewer.js)
//   /daily       the daily race (daily/daily.js)

import { h, replaceChildren, modal, icon } from './common/dom.js';
import { t, LANGUAGES, getLang, setLang, onLangChange } from './common/i18n.js';
import { getAnnounce, setAnnounce } from './common/storage.js';
import { initSettings, applySettings, showSettings } from './common/settings-panel.js';
import { showRules } from './common/rules.js';
import * as home from './home.js';

// The Demon room and Devil's Grip are loaded when first shown: the home page, the first
// page of a first visit, need not wait for their ~25 modules (over a phone's network that
// was about a second before its buttons worked). The server preloads each
// page's own modules in the HTML (app/server/static_assets.py), and the home page asks
// for the room's once it is idle (where most of its buttons lead), so that click finds
// them ready. Not the others': with Devil's Grip, the replays and the daily race too, a
// first visit came to 167 KB against its 150 KB budget (tests/browser/test_pwa.py); they
// load when opened, and the service worker keeps them all once it is installed.
const PAGES = {
  room: () => import('./demon/room.js'),
  grip: () => import('./grip/grip.js'),
  replay: () => import('./replay/replay.js'),
  gripReplay: () => import('./replay/grip-viewer.js'),
  daily: () => import('./daily/daily.js'),
};

/**
 * What a page's mount() returns: the router and the header call what it has.
 * @typedef {object} Page
 * @property {() => void} [destroy]
 * @property {() => void} [rerender] the settings or the language changed
 * @property {() => string} [title]
 * @property {() => unknown[][]} [keys] its part of the keyboard help: [title, [[keys, what]]]
 *   sections (KeyHelp; a page whose keys() is not annotated has its array literal inferred
 *   as plain arrays, so the help takes it as KeyHelp where it reads it)
 */

// index.html has both (the page's header and main).
const header = /** @type {HTMLElement} */ (document.getElementById('top'));
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {Page | null} */
let current = null;

// the settings take effect before anything is drawn; a change redraws the page
initSettings(() => {
  renderHeader();
  if (current && current.rerender) current.rerender();
});

/**
 * @param {string} path
 * @param {{replace?: boolean}} [how]
 */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

let routed = 0; // which route() a page module that arrives late was loaded for

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  routed += 1;
  document.body.classList.remove('dragging');
  replaceChildren(main);
  const path = location.pathname;
  const roomMatch = /^\/r\/([A-Za-z0-9_-]{1,32})\/?$/.exec(path);
  if (roomMatch) {
    document.body.dataset.view = 'room';
    show('room', (room) => room.mount(main, { code: roomMatch[1].toUpperCase(), navigate }));
  } else if (/^\/replay\/[A-Za-z0-9_-]{1,32}\/[A-Za-z0-9_-]{1,64}\/?$/.test(path)) {
    const [, , code, id] = path.split('/');
    document.body.dataset.view = 'replay';
    show('replay', (replay) => replay.mount(main, { code: code.toUpperCase(), id, navigate }));
  } else if (/^\/grip\/replay\/[A-Za-z0-9_-]{1,64}\/?$/.test(path)) {
    const id = path.split('/')[3];
    document.body.dataset.view = 'grip-replay';
    show('gripReplay', (viewer) => viewer.mount(main, { id, navigate }));
  } else if (/^\/daily\/?$/.test(path)) {
    document.body.dataset.view = 'daily';
    show('daily', (daily) => daily.mount(main, { navigate }));
  } else if (/^\/grip\/?$/.test(path)) {
    document.body.dataset.view = 'grip';
    show('grip', (grip) => grip.mount(main, { navigate }));
  } else {
    document.body.dataset.view = 'home';
    current = home.mount(main, { navigate });
    whenIdle(() => PAGES.room().catch(() => {}));
  }
  renderHeader();
}

// Mounts a page module once it is loaded, unless the player went elsewhere meanwhile.
/**
 * @template {keyof typeof PAGES} K
 * @param {K} name
 * @param {(mod: Awaited<ReturnType<(typeof PAGES)[K]>>) => Page} mount
 */
function show(name, mount) {
  const mine = routed;
  /** @type {() => Promise<Awaited<ReturnType<(typeof PAGES)[K]>>>} */ (PAGES[name])().then((mod) => {
    if (mine !== routed) return;
    current = mount(mod);
    renderHeader();
  }, () => {
    // not reachable (offline before the service worker kept the app): say so
    if (mine === routed) replaceChildren(main, h('p', { class: 'loading', text: t('table.offline') }));
  });
}

/** @param {() => void} fn */
function whenIdle(fn) {
  if (window.requestIdleCallback) window.requestIdleCallback(fn, { timeout: 3000 });
  else setTimeout(fn, 1000);
}

function renderHeader() {
  const langSelect = h('select', { class: 'lang', 'aria-label': t('header.language'),
    onchange: (/** @type {Event} */ e) => setLang(/** @type {HTMLSelectElement} */ (e.target).value) },
  LANGUAGES.map(([code, name]) => h('option', { value: code, selected: code === getLang() }, name)));
  // sound, four colours, card letters, table colour, left hand, animations: one dialog
  const settingsBtn = h('button', { type: 'button', class: 'icon-btn settings-btn', id: 'settings-btn',
    title: t('settings.title'), 'aria-label': t('settings.title'), 'aria-haspopup': 'dialog',
    onclick: () => showSettings() }, icon('settings'));
  const helpBtn = h('button', { type: 'button', class: 'icon-btn keys-btn', title: t('header.keys'),
    'aria-label': t('header.keys'), 'aria-keyshortcuts': '?', onclick: showKeys }, '?');
  // on a phone only the icon shows; the label stays the button's name
  const rulesBtn = h('button', { type: 'button', class: 'text-btn rules-btn', title: t('header.rules'),
    onclick: () => showRules() }, icon('book'), h('span', { class: 'label', text: t('header.rules') }));
  // named by its own words even where a phone shows only the mark
  const brand = h('a', { href: '/', class: 'brand', 'aria-label': t('app.title'), onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); navigate('/'); } },
    h('span', { class: 'brand-mark', 'aria-hidden': 'true', text: '♠' }),
    h('span', { class: 'brand-name', text: t('app.title') }));
  replaceChildren(header, brand, h('nav', { class: 'top-tools', 'aria-label': t('header.tools') },
    rulesBtn, settingsBtn, helpBtn, langSelect));
  document.documentElement.lang = getLang();
  const skip = document.querySelector('.skip');
  if (skip) skip.textContent = t('app.skip');
  document.title = current && current.title ? current.title() : t('app.title');
}

function showKeys() {
  /** @type {import('./demon/room.js').KeyHelp} */
  const sections = [
    [t('keys.general'), [['?', t('keys.help')], ['Esc', t('keys.escape')], ['Tab', t('keys.tab')]]],
  ];
  if (current && current.keys) sections.push(.../** @type {import('./demon/room.js').KeyHelp} */ (current.keys()));
  const body = h('div', { class: 'keys-help' }, sections.map(([title, rows]) => h('section', null,
    h('h3', { text: title }),
    h('dl', null, rows.map(([key, what]) => [h('dt', null, h('kbd', { text: key })), h('dd', { text: what })])))));
  // at a Demon table every play is read out to a screen reader; this keeps only your own
  if (document.body.dataset.view === 'room') {
    body.append(h('section', null, h('h3', { text: t('say.title') }),
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'announce-mine', checked: getAnnounce() === 'mine',
          onchange: (/** @type {Event} */ e) => setAnnounce(/** @type {HTMLInputElement} */ (e.target).checked ? 'mine' : 'all') }),
        ' ', t('say.onlyMine'))));
  }
  modal(t('keys.title'), body);
}

document.addEventListener('keydown', (e) => {
  if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {HTMLElement | null} */ (e.target);
  const tag = target ? target.tagName : '';
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag)) return;
  if (document.querySelector('.modal-shade')) return;
  e.preventDefault();
  showKeys();
});

window.addEventListener('popstate', route);
onLangChange(() => {
  applySettings(); // the card letters follow the language
  renderHeader();
  if (current && current.rerender) current.rerender();
});

route();
