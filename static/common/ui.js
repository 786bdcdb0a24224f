// UI pieces more than one page uses: how an HTTP error reads, and the Demon room's
// option fields (the home page's "Start a room" and the host's lobby both show them).
// Pages import these from here, never from each other.

import { h } from './dom.js';
import { t } from './i18n.js';

// An ApiError (api.js) in the player's words.
/**
 * @param {unknown} error what was thrown: an ApiError, or anything else
 * @returns {string}
 */
export function errorText(error) {
  const err = /** @type {{ status?: unknown, detail?: unknown } | null | undefined} */ (error);
  if (!err) return t('error.generic');
  if (err.status === 0) return t('error.network');
  if (err.status === 429) return t('error.tooMany');
  if (typeof err.detail === 'string' && err.detail) return `${t('error.server')}: ${err.detail}`;
  return t('error.generic');
}

export const TIME_LIMITS = [null, 60, 120, 180, 300, 600, 900, 1800, 3600];

/**
 * @param {number | null} seconds
 * @returns {string}
 */
export function timeLimitLabel(seconds) {
  return seconds ? t('options.minutes', { n: seconds / 60 }) : t('options.noLimit');
}

// Three selects (rounds, time per round, players at most); `read()` gives the options.
/**
 * @typedef {{ rounds: number, time_limit_s: number | null, max_players: number }} RoomOptions
 */

/**
 * @param {Partial<RoomOptions>} options the values shown first
 * @param {(event: Event) => unknown} onChange
 * @param {string} idPrefix
 * @returns {{ el: HTMLDivElement, read: () => RoomOptions, inputs: HTMLSelectElement[] }}
 */
export function optionFields(options, onChange, idPrefix) {
  const rounds = h('select', { id: `${idPrefix}-rounds`, name: 'rounds', onchange: onChange },
    Array.from({ length: 20 }, (_, i) => i + 1).map((n) =>
      h('option', { value: n, selected: n === options.rounds }, String(n))));
  const limit = h('select', { id: `${idPrefix}-limit`, name: 'time_limit_s', onchange: onChange },
    TIME_LIMITS.map((s) => h('option', { value: s === null ? '' : s, selected: s === (options.time_limit_s ?? null) },
      timeLimitLabel(s))));
  const players = h('select', { id: `${idPrefix}-max`, name: 'max_players', onchange: onChange },
    [2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === options.max_players }, String(n))));
  const read = () => ({
    rounds: Number(rounds.value),
    time_limit_s: limit.value === '' ? null : Number(limit.value),
    max_players: Number(players.value),
  });
  const el = h('div', { class: 'option-fields' },
    h('label', { for: rounds.id }, h('span', { text: t('options.rounds') }), rounds),
    h('label', { for: limit.id }, h('span', { text: t('options.timeLimit') }), limit),
    h('label', { for: players.id }, h('span', { text: t('options.maxPlayers') }), players));
  return { el, read, inputs: [rounds, limit, players] };
}
