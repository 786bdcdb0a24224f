// How a computer player is shown wherever a seat's name appears (lobby, table, results,
// recent games): a robot icon and its level. The server marks a bot with `bot: "easy" |
// "medium" | "hard"` on the player (docs/protocol.md); a person has `bot: null`.

import { h } from './dom.js';
import { t } from './i18n.js';

export const BOT_LEVELS = ['easy', 'medium', 'hard'];

export function botLevel(player) {
  return player && BOT_LEVELS.includes(player.bot) ? player.bot : null;
}

// The badge after a bot's name, or null for a person.
export function botBadge(player) {
  const level = botLevel(player);
  if (!level) return null;
  const label = t(`bots.level.${level}`);
  return h('span', { class: `tag bot bot-${level}`, title: t('bots.badge', { level: label }),
    dataset: { bot: level } },
  h('span', { class: 'bot-icon', 'aria-hidden': 'true', text: '🤖' }), ' ', label);
}
