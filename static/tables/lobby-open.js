// The lobby's part of open tables (demon/lobby.js draws the rest): that the table is
// open, said to everyone, with the host's switch to close or reopen it (`set_open`); the
// countdown of a "Play now" lobby to its bots (`fill_at`: "Bots fill the empty seats and
// the game starts in 14 s", so nobody waits without knowing for what); and the host's
// button that removes a person's seat (`remove_player`; a bot's is `remove_bot`).
//
// The elements are made once and kept: the lobby draws its seats again on every update,
// and a switch made again would lose the keyboard focus. The countdown is written each
// tick only when its second changes, and said to a screen reader once per new fill
// (politely), not every second.

import { h, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { nameOf } from '../demon/bot-badge.js';
import { fillText, readTables } from './tables-model.js';

/** @typedef {import('../demon/protocol-types.js').RoomState} RoomState */
/** @typedef {import('../demon/protocol-types.js').Player} Player */
/** @typedef {import('../demon/protocol-types.js').ClientMessage} ClientMessage */

/**
 * @param {{ send: (msg: ClientMessage) => boolean, isHost: () => boolean }} ctx
 */
export function createLobbyOpen(ctx) {
  // whether this server has open tables at all: the host's switch shows only if so
  /** @type {boolean | null} */
  let serverHasThem = null;
  /** @type {RoomState | null} */
  let state = null;
  /** @type {number | null} */
  let saidFill = null;

  const toggle = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'lobby-open',
    onchange: () => ctx.send({ type: 'set_open', open: toggle.checked }) }));
  const toggleLabel = h('label', { for: 'lobby-open', class: 'check lobby-open-toggle', hidden: true },
    toggle, h('span', { class: 'toggle-text' }));
  const notice = h('p', { class: 'open-notice', id: 'open-notice', hidden: true });
  const openBox = h('div', { class: 'lobby-open' }, toggleLabel, notice);
  const fillNote = h('p', { class: 'fill-note', id: 'fill-note', hidden: true });
  const said = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  const fillBox = h('div', { class: 'lobby-fill' }, fillNote, said);

  let asked = false;
  // Asked once, by the host only (the others have no switch to show).
  function askServer() {
    asked = true;
    fetch('/api/tables', { cache: 'no-store', credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => {
        serverHasThem = readTables(data).enabled;
        if (state) update(state);
      }, () => { /* not known: the switch stays hidden, the notice still follows the room */ });
  }

  /** @param {RoomState} next */
  function update(next) {
    state = next;
    const open = next.open === true;
    const host = ctx.isHost();
    if (host && !asked) askServer();
    const hostSwitch = host && (serverHasThem === true || open);
    setHidden(toggleLabel, !hostSwitch);
    if (toggle.checked !== open) toggle.checked = open;
    const text = /** @type {HTMLElement} */ (toggleLabel.lastElementChild);
    if (text.textContent !== t('tables.openToggle')) text.textContent = t('tables.openToggle');
    // everyone else reads it; the host's switch says it already
    setHidden(notice, !open || hostSwitch);
    notice.textContent = t('tables.openNotice');
    tick();
    const fillAt = typeof next.fill_at === 'number' ? next.fill_at : null;
    if (fillAt !== null && fillAt !== saidFill) said.textContent = fillNote.textContent;
    saidFill = fillAt;
  }

  function tick() {
    const fillAt = state && typeof state.fill_at === 'number' && state.phase === 'lobby' ? state.fill_at : null;
    const text = fillText(fillAt, Date.now(), t);
    setHidden(fillNote, text === null);
    if (text !== null && fillNote.textContent !== text) fillNote.textContent = text;
  }

  // The host's "Remove" beside a person's seat in the lobby (not the host's own, not a bot's).
  /**
   * @param {Player} player
   * @param {RoomState} room
   * @param {boolean} me
   */
  function removeButton(player, room, me) {
    if (me || player.bot || !ctx.isHost() || room.phase !== 'lobby' || player.id === room.host) return null;
    const seat = player.seat;
    if (typeof seat !== 'number') return null;
    const name = nameOf(player);
    return h('button', { type: 'button', class: 'secondary small remove-player',
      'aria-label': t('tables.removeLabel', { name }),
      onclick: () => {
        if (window.confirm(t('tables.removeConfirm', { name }))) ctx.send({ type: 'remove_player', seat });
      } }, t('tables.removePlayer'));
  }

  return { openBox, fillBox, update, tick, removeButton };
}
