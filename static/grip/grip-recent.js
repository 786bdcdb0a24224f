// "Your recent games" on the Devil's Grip page: the games this browser played
// (storage.js listGripPlayed: finished ones, and ones left for another deal once the
// server had a move of them), newest first, each with a link to watch it again
// (/grip/replay/{id}, replay/grip-viewer.js). Drawn again only when the list or the
// language changed, not on every move.

import { h, replaceChildren } from '../common/dom.js';
import { t } from '../common/i18n.js';

/** @typedef {import('../common/storage.js').PlayedGrip} PlayedGrip */

export const RECENT_SHOWN = 8;

// The words of one entry: won, ended with a score, or left unfinished.
/**
 * @param {PlayedGrip} game
 * @param {import('../common/i18n.js').Translate} tr
 * @returns {string}
 */
export function recentText(game, tr) {
  if (!game.over) return tr('gripReplay.recentLeft', { n: game.number });
  return tr(game.won ? 'gripReplay.recentWon' : 'gripReplay.recentOver', { n: game.number, score: game.score });
}

/**
 * @param {HTMLElement} el
 * @param {PlayedGrip[]} games
 * @param {((path: string) => void) | null} [navigate] the app's own navigation, else the link is followed
 */
export function drawRecent(el, games, navigate) {
  const shown = games.slice(0, RECENT_SHOWN);
  const key = `${t('lang.code')}|${shown.map((g) => `${g.id}:${g.over}:${g.score}`).join(',')}`;
  if (el.dataset.drawn === key) return;
  el.dataset.drawn = key;
  el.hidden = !shown.length;
  replaceChildren(el, shown.length ? [
    h('h2', { id: 'grip-recent-title', text: t('gripReplay.recentTitle') }),
    h('ul', { class: 'grip-recent-list', id: 'grip-recent' }, shown.map((g) => h('li', { dataset: { game: g.id } },
      h('span', { id: `grip-recent-${g.id}`, text: recentText(g, t) }), ' ',
      h('a', { href: `/grip/replay/${g.id}`, class: 'grip-recent-watch', 'aria-describedby': `grip-recent-${g.id}`,
        onclick: (e) => { if (navigate) { e.preventDefault(); navigate(`/grip/replay/${g.id}`); } } }, t('gripReplay.watch'))))),
  ] : []);
}
