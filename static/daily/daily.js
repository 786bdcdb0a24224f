// The daily race, /daily: today's Demon deal, the same for everyone on this
// server, against bots of the chosen level; and the day's table of everyone who raced
// it, each entry with its replay. The browser's one counted attempt a day rests on an
// id it keeps (honour system: another browser is another attempt; docs/daily.md). Today's
// replays (and rooms) stay closed to a browser until its own race of today has ended: the
// server leaves them out of the table until then, and the page says so.

import { h, replaceChildren } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api, ApiError } from '../common/api.js';
import { getPref, setPref, setRoomCreds } from '../common/storage.js';
import { BOT_LEVELS } from '../demon/bot-badge.js';
import { browserId } from './browser-id.js';
import { placeOf, rankOf } from './daily-rank.js';

export { browserId };

/**
 * One racer of the day (docs/daily.md, GET /api/daily); `score` and `replay_id` are null
 * while the race is on, and `code` and `replay_id` are for today only once this browser's
 * own race has ended.
 * @typedef {object} DailyEntry
 * @property {string} name
 * @property {string} level
 * @property {string | null} code
 * @property {boolean} [mine] this browser's entry
 * @property {number | null} score
 * @property {number | null} home
 * @property {string | number | null} replay_id
 */

/**
 * @typedef {object} DailyDay
 * @property {string} day YYYY-MM-DD
 * @property {number} bots
 * @property {number} time_limit_s
 * @property {string} today YYYY-MM-DD
 * @property {boolean} played this browser id has started that day's race
 * @property {boolean} raced ...and it has ended: today's replays are shown
 * @property {DailyEntry[]} entries
 */

/**
 * @param {HTMLElement} container
 * @param {{navigate: (path: string) => void}} options
 */
export function mount(container, { navigate }) {
  const el = h('div', { class: 'daily' });
  container.append(el);
  const me = browserId();
  /** @type {DailyDay | null} */
  let day = null;
  let error = '';
  let busy = false;
  let destroyed = false;
  /** @type {string} */
  let level = getPref('dailyLevel', 'medium');
  if (!BOT_LEVELS.some((lv) => lv === level)) level = 'medium';
  let name = getPref('name', '');

  async function load() {
    try {
      day = await api.daily(me);
    } catch (err) {
      error = err instanceof ApiError && err.status === 503 ? err.message : t('daily.failed');
    }
    if (!destroyed) render();
  }

  /** @param {SubmitEvent} e */
  async function start(e) {
    e.preventDefault();
    name = name.trim();
    if (!name) { error = t('home.nameNeeded'); render(); return; }
    busy = true;
    error = '';
    render();
    try {
      setPref('name', name);
      setPref('dailyLevel', level);
      const grant = await api.startDaily(name, level, me);
      setRoomCreds(grant.code, { ...grant, name });
      navigate(`/r/${grant.code}`);
    } catch (err) {
      busy = false;
      error = err instanceof ApiError && typeof err.detail === 'string' && err.status !== 0 ? err.detail : t('daily.failed');
      if (err instanceof ApiError && err.status === 409 && day) day.played = true;
      if (!destroyed) render();
    }
  }

  function render() {
    const heading = h('h1', { text: t('daily.title') });
    if (!day) {
      replaceChildren(el, h('section', { class: 'panel daily-start' }, heading,
        error ? h('p', { class: 'error', role: 'alert', text: error }) : h('p', { role: 'status', text: t('replay.loading') })));
      return;
    }
    const minutes = Math.max(1, Math.round(day.time_limit_s / 60));
    const levelSelect = h('select', { id: 'daily-level', onchange: (/** @type {Event} */ e) => { level = /** @type {HTMLSelectElement} */ (e.target).value; } },
      BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === level }, t(`bots.level.${lv}`))));
    const nameInput = h('input', { id: 'daily-name', type: 'text', maxlength: '20', autocomplete: 'nickname',
      required: true, value: name, placeholder: t('home.namePlaceholder'), oninput: (/** @type {Event} */ e) => { name = /** @type {HTMLInputElement} */ (e.target).value; } });
    const form = h('form', { class: 'panel daily-start', onsubmit: start, 'aria-labelledby': 'daily-title' },
      h('h1', { id: 'daily-title', text: t('daily.title') }),
      h('p', { class: 'lead', text: t('daily.lead', { n: day.bots, minutes }) }),
      h('p', { class: 'note', text: t('daily.honour') }),
      day.played ? h('p', { class: 'note played', id: 'daily-played', text: t('daily.played') }) : [
        h('label', { for: 'daily-name' }, h('span', { text: t('home.yourName') }), nameInput),
        h('label', { for: 'daily-level' }, h('span', { text: t('bots.level') }), levelSelect),
        h('button', { type: 'submit', class: 'primary', id: 'daily-start', disabled: busy }, t('daily.start'))],
      error ? h('p', { class: 'error', role: 'alert', text: error }) : null);
    const entries = day.entries;
    const rows = entries.map((entry) => h('tr', { class: entry.mine ? 'mine' : null },
      h('td', { text: entry.score === null ? '' : String(placeOf(entries, entry.score)) }),
      h('th', { scope: 'row' }, h('span', { text: entry.name }), ' ',
        h('span', { class: 'tag level', text: t(`bots.level.${entry.level}`) }),
        entry.mine ? h('span', { class: 'tag you', text: t('daily.you') }) : null),
      h('td', { text: entry.home === null ? '' : `${entry.home}/52` }),
      h('td', { text: entry.score === null ? t('daily.racing') : String(entry.score) }),
      h('td', null, entry.replay_id && entry.code ? h('a', { href: `/replay/${entry.code}/${entry.replay_id}`, class: 'daily-replay',
        onclick: (/** @type {MouseEvent} */ ev) => { ev.preventDefault(); navigate(`/replay/${entry.code}/${entry.replay_id}`); } },
      t('daily.watch', { name: entry.name })) : null)));
    const rank = rankOf(day.entries);
    const closed = day.day === day.today && !day.raced && day.entries.length > 0;
    const results = h('section', { class: 'panel daily-results', 'aria-labelledby': 'daily-results-title' },
      h('h2', { id: 'daily-results-title', text: t('daily.resultsTitle', { day: formatDay(day.day) }) }),
      rank ? h('p', { class: 'daily-rank', id: 'daily-rank', text: t('daily.rank', { rank: rank.rank, of: rank.of }) }) : null,
      closed ? h('p', { class: 'note', id: 'daily-closed', text: t('daily.closed') }) : null,
      day.entries.length ? h('div', { class: 'daily-table-wrap' }, h('table', { class: 'score-table daily-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: t('result.player') }),
          h('th', { scope: 'col', text: t('daily.home') }),
          h('th', { scope: 'col', text: t('daily.score') }), h('th', { scope: 'col', text: t('daily.replay') }))),
        h('tbody', null, rows))) : h('p', { class: 'note', text: t('daily.nobody') }));
    replaceChildren(el, form, results);
  }

  /** @param {string} iso */
  function formatDay(iso) {
    const [y, m, d] = iso.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(t('lang.code'), { dateStyle: 'long', timeZone: 'UTC' });
  }

  load();
  render();
  return {
    title: () => t('daily.title'),
    rerender: render,
    destroy() { destroyed = true; el.remove(); },
  };
}
