// The home page's open tables: "Play now" (play-now.js) beside the list of tables anyone
// on this server may join or watch (GET /api/tables), and the create form's "Open table"
// choice. Made once per visit of the home page and kept while the page is drawn again,
// so that the list, its poll and the keyboard focus in it survive the page's redraws.
//
// The list is asked for again every `refresh_s` while the page is visible, with the last
// ETag (most answers are a 304 of a few bytes), and not at all while the tab is hidden
// (document.visibilityState): a page left open in a background tab costs the server
// nothing. Rows are drawn by key (common/dom.js keyedChildren), so a poll that changed
// one table makes one row again and a button under the keyboard focus keeps it. A screen
// reader hears of a table that appeared, politely, once; never of a poll.
// The whole section is hidden while the server says open tables are off (`enabled`).

import { h, keyedChildren, replaceChildren, setHidden } from '../common/dom.js';
import { t, getLang } from '../common/i18n.js';
import { api, ApiError } from '../common/api.js';
import { setRoomCreds } from '../common/storage.js';
import { errorText } from '../common/ui.js';
import { nextPoll, readTables, tableParts, actionOf, gameWords, seatWords, languageName, newTables } from './tables-model.js';
import { createPlayNow } from './play-now.js';

/** @typedef {import('./tables-model.js').OpenTable} OpenTable */
/** @typedef {import('./tables-model.js').TableList} TableList */
/** @typedef {import('../common/api.js').SeatGrant} SeatGrant */

/**
 * What the home page lends this section: its name field (kept in step with the page's
 * others) and the check of the name typed.
 * @typedef {object} NameField
 * @property {(id: string) => HTMLInputElement} input a name field with this id
 * @property {() => string | null} clean the name, saved; null when there is none fit
 */

// GET /api/tables with the last answer's ETag: `{changed: false}` on a 304. `no-store`:
// the page makes its own conditional request and reads the 304 itself (common/api.js
// has no conditional request).
/**
 * @param {string | null} etag
 * @returns {Promise<{ changed: false } | { changed: true, etag: string | null, data: unknown }>}
 */
export async function fetchTables(etag) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  const response = await fetch('/api/tables', { headers, cache: 'no-store', credentials: 'same-origin' });
  if (response.status === 304) return { changed: false };
  if (!response.ok) throw new ApiError(response.status, `HTTP ${response.status}`);
  return { changed: true, etag: response.headers.get('ETag'), data: await response.json() };
}

/**
 * @param {{ navigate: (path: string) => void, name: NameField }} options
 */
export function createOpenTables({ navigate, name }) {
  /** @type {TableList | null} null: not asked yet */
  let list = null;
  /** @type {string | null} */
  let etag = null;
  /** @type {Set<string> | null} the codes listed at the last poll (null: none yet) */
  let seen = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let polling = false;
  let failures = 0;
  let destroyed = false;
  let busy = false;
  let error = '';
  let openChecked = false;
  /** @type {HTMLElement | null} the create form's "Open table" choice, shown when enabled */
  let openLabel = null;

  const rows = h('ul', { class: 'open-tables', id: 'open-tables', 'aria-labelledby': 'tables-title' });
  const keyed = keyedChildren(rows);
  const empty = h('p', { class: 'note tables-empty', id: 'tables-empty', hidden: true });
  // new tables said once, politely (not each poll: the list's own changes are silent)
  const said = h('p', { class: 'sr-only', id: 'tables-said', role: 'status', 'aria-live': 'polite' });
  const listPanel = h('section', { class: 'panel tables-list', 'aria-labelledby': 'tables-title' });
  const playNow = createPlayNow({ navigate, name });
  const el = h('div', { class: 'open-tables-band', id: 'open-tables-band', hidden: true },
    playNow.el, listPanel);

  function enabled() { return Boolean(list && list.enabled); }

  function drawPanel() {
    replaceChildren(listPanel,
      h('h2', { id: 'tables-title', text: t('tables.title') }),
      h('p', { class: 'lead', text: t('tables.lead') }),
      rows, empty,
      error ? h('p', { class: 'error', role: 'alert', text: error }) : null,
      said);
  }

  /** @param {OpenTable} table */
  function row(table) {
    const act = actionOf(table);
    const id = `ot-${table.code}`;
    return h('li', { class: `open-table${table.started ? ' started' : ''}`, dataset: { code: table.code } },
      h('p', { class: 'ot-head' },
        h('span', { class: 'ot-game', id: `${id}-game`, text: gameWords(table, t) }),
        h('span', { class: `tag ${table.started ? 'ot-playing' : 'ot-lobby'}`,
          text: t(table.started ? 'tables.started' : 'tables.waiting') })),
      h('p', { class: 'ot-detail', id: `${id}-detail` },
        h('span', { text: seatWords(table, t) }),
        h('span', { text: t('tables.host', { name: table.host || '?' }) }),
        table.language ? h('span', { text: t('tables.language', { language: languageName(table.language) }) }) : null),
      act ? h('button', { type: 'button', class: act === 'join' ? 'primary small' : 'secondary small',
        dataset: { focus: 'act', act }, disabled: busy, 'aria-describedby': `${id}-game ${id}-detail`,
        onclick: () => sit(table.code) }, t(act === 'join' ? 'tables.join' : 'tables.watch')) : null);
  }

  function drawRows() {
    const tables = list ? list.tables : [];
    const lang = getLang();
    keyed.patch(tables.map((table) => ({ key: table.code, parts: [...tableParts(table, lang), busy], make: () => row(table) })));
    setHidden(rows, tables.length === 0);
    setHidden(empty, tables.length !== 0);
    empty.textContent = t('tables.none');
  }

  /** @param {TableList} next */
  function apply(next) {
    const fresh = seen === null ? [] : newTables(seen, next.tables);
    list = next;
    seen = new Set(next.tables.map((table) => table.code));
    setHidden(el, !next.enabled);
    if (openLabel) setHidden(openLabel, !next.enabled);
    drawRows();
    if (fresh.length) {
      said.textContent = fresh.slice(0, 3).map((table) =>
        t('tables.appeared', { game: gameWords(table, t), name: table.host || '?' })).join(' ');
    }
  }

  async function poll() {
    timer = undefined;
    if (destroyed || polling || document.visibilityState !== 'visible') return;
    polling = true;
    try {
      const got = await fetchTables(etag);
      failures = 0;
      if (got.changed && !destroyed) {
        etag = got.etag;
        apply(readTables(got.data));
      }
    } catch {
      failures += 1; // the last list stays; the next poll comes later
    } finally {
      polling = false;
    }
    const wait = destroyed ? null : nextPoll(list, document.visibilityState === 'visible', failures);
    if (wait !== null) timer = setTimeout(poll, wait);
  }

  // Hidden: the pending poll is dropped; visible again: asked at once.
  function onVisibility() {
    if (document.visibilityState === 'visible') {
      if (timer === undefined && !polling) poll();
    } else {
      clearTimeout(timer);
      timer = undefined;
    }
  }
  document.addEventListener('visibilitychange', onVisibility);

  // Join (a lobby's free seat) or Watch (a started round): the same join as by code.
  /** @param {string} code */
  async function sit(code) {
    const who = name.clean();
    if (!who) {
      error = t('tables.nameFirst'); // the name field is Play now's, beside the list
      drawPanel();
      playNow.focusName();
      return;
    }
    busy = true; error = ''; drawPanel(); drawRows();
    try {
      const answer = await api.joinRoom(code, who);
      setRoomCreds(answer.code, { code: answer.code, token: answer.token, seat: answer.seat,
        you: answer.you ?? null, spectator: answer.spectator, name: who });
      navigate(`/r/${answer.code}`);
    } catch (err) {
      busy = false;
      const status = /** @type {{status?: number}} */ (err).status;
      error = status === 404 ? t('tables.gone') : errorText(err);
      if (!destroyed) { drawPanel(); drawRows(); }
    }
  }

  drawPanel();
  drawRows();
  poll();

  return {
    el,
    // the language changed: every word again
    rerender() {
      playNow.draw();
      drawPanel();
      drawRows();
    },
    // The create form's "Open table" choice (a new one each time the form is drawn),
    // hidden while open tables are off.
    openChoice() {
      openLabel = h('label', { for: 'create-open', class: 'check', hidden: !enabled() },
        h('input', { type: 'checkbox', id: 'create-open', checked: openChecked,
          onchange: (/** @type {Event} */ e) => { openChecked = /** @type {HTMLInputElement} */ (e.target).checked; } }),
        h('span', { text: t('tables.openChoice') }));
      return openLabel;
    },
    // What POST /api/rooms carries for it: `open` and the page's language, only where
    // the server has open tables (an older server or one with them off is not asked).
    /** @returns {{ open?: boolean, language?: string }} */
    createFields() {
      return enabled() ? { open: openChecked, language: getLang() } : {};
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
