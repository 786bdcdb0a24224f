// The end of a daily race, on the room's results panel (static/demon/demon-panels.js
// draws it for a room whose state says `daily`): no Rematch, since the day's deal is one
// counted round (the server refuses a rematch too: docs/daily.md), but the person's rank
// in the day's table, a link to that table, and a practice round against bots.

import { h } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { getPref, setRoomCreds } from '../common/storage.js';
import { browserId } from './browser-id.js';
import { rankOf } from './daily-rank.js';

/** @type {Map<string, {rank: number, of: number} | 'pending' | 'none'>} room code -> its rank */
const ranks = new Map();

/**
 * The rank of this browser's entry, asked once per room (again while the entry is still
 * being written: the round's end reaches the page before the server has kept it).
 * @param {string} code
 * @param {number} [tries]
 */
function lookUp(code, tries = 0) {
  ranks.set(code, 'pending');
  api.daily(browserId()).then((day) => {
    const rank = rankOf(day.entries);
    if (!rank && tries < 8) { setTimeout(() => lookUp(code, tries + 1), 500); return; }
    ranks.set(code, rank || 'none');
    const line = document.getElementById('daily-rank');
    if (line) line.textContent = rankText(code);
  }).catch(() => { ranks.set(code, 'none'); });
}

/** @param {string} code */
function rankText(code) {
  const rank = ranks.get(code);
  return rank && typeof rank === 'object' ? t('daily.rank', { rank: rank.rank, of: rank.of }) : '';
}

async function practiceRound() {
  const name = String(getPref('name', '') || '').trim();
  if (!name) { location.assign('/'); return; } // the home page asks for one
  const level = String(getPref('dailyLevel', 'medium'));
  const grant = await api.practiceRoom(name, 3, level, 1);
  setRoomCreds(grant.code, { ...grant, name });
  location.assign(`/r/${grant.code}`);
}

/**
 * What the daily race's results offer instead of Rematch.
 * @param {string} code the daily race's room
 */
export function dailyNext(code) {
  if (!ranks.has(code)) lookUp(code);
  return h('div', { class: 'daily-next' },
    h('p', { class: 'note', text: t('daily.noRematch') }),
    h('p', { class: 'daily-rank', id: 'daily-rank', role: 'status', text: rankText(code) }),
    h('a', { href: '/daily', class: 'button primary big', id: 'daily-table-link' }, t('daily.seeTable')),
    h('button', { type: 'button', class: 'secondary', id: 'daily-practice',
      onclick: () => { practiceRound().catch(() => location.assign('/')); } }, t('daily.practice')));
}
