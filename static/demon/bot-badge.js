// How a computer player is shown wherever a seat's name appears (lobby, table, results,
// recent games): a robot icon and its level. The server marks a bot with `bot: "easy" |
// "medium" | "hard"` on the player (docs/protocol.md); a person has `bot: null`.

import { h } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { shownName } from './demon-model.js';

/** @typedef {import('./protocol-types.js').BotLevel} BotLevel */
/** @typedef {{name: string, bot?: string | null}} Named a player, or anyone with a name who may be a bot */

/** @type {BotLevel[]} */
export const BOT_LEVELS = ['easy', 'medium', 'hard'];

/**
 * @param {Named | null | undefined} player
 * @returns {BotLevel | null}
 */
export function botLevel(player) {
  const bot = player ? player.bot : null;
  return BOT_LEVELS.find((level) => level === bot) || null;
}

// A bot's name in the page's language. The server names bots "Bot 1", "Bot 2", ... in its
// own words (app/demon/room/seating.py); a person's name is shown as they typed it.
/** @param {Named | null | undefined} player */
export function nameOf(player) {
  return shownName(player, t);
}

// What a level means to a person, beside its name on a level picker (docs/bots.md:
// measured against a scripted beginner and club player).
/** @param {string} level */
export function levelChoiceLabel(level) {
  return `${t(`bots.level.${level}`)} — ${t(`bots.means.${level}`)}`;
}

// The badge after a bot's name, or null for a person.
/**
 * @param {Named | null | undefined} player
 * @returns {HTMLElement | null}
 */
export function botBadge(player) {
  const level = botLevel(player);
  if (!level) return null;
  const label = t(`bots.level.${level}`);
  return h('span', { class: `tag bot bot-${level}`, title: t('bots.badge', { level: label }),
    dataset: { bot: level } },
  robotIcon(), ' ', label);
}

// A line drawing of a robot's head (an emoji would depend on the system's fonts).
const SVG_NS = 'http://www.w3.org/2000/svg';
const ROBOT = ['M5 8h14v11H5z', 'M12 8V4.5', 'M9 12.5v1.5', 'M15 12.5v1.5', 'M9.5 16.5h5', 'M3 12v3', 'M21 12v3'];

function robotIcon() {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon bot-icon');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of ROBOT) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  const dot = document.createElementNS(SVG_NS, 'circle');
  dot.setAttribute('cx', '12');
  dot.setAttribute('cy', '3.5');
  dot.setAttribute('r', '1');
  svg.append(dot);
  return svg;
}
