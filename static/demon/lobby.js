// The room lobby: the code (large), invite link (copy / share), the seats, and the
// host's options and start button. Names are always inserted as text.

import { h, replaceChildren, toast, icon, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { backEl } from '../cards/cards.js';
import { seatedPlayers, spectatorCount, playerById } from './demon-model.js';
import { optionFields, timeLimitLabel } from '../common/ui.js';
import { play } from '../common/sound.js';
import { BOT_LEVELS, botBadge, levelChoiceLabel, nameOf } from './bot-badge.js';
import { api } from '../common/api.js';
import { inviteLink, loopbackAdvice } from './invite.js';
import { choiceOf, wireFields } from '../racing/game-options.js';
import { gameFields, choiceRows } from '../racing/game-fields.js';

/** @typedef {import('./protocol-types.js').RoomState} RoomState */
/** @typedef {import('./protocol-types.js').Player} Player */

/**
 * @param {HTMLElement} container
 * @param {import('./room.js').RoomContext} ctx
 */
export function mount(container, ctx) {
  const el = h('div', { class: 'lobby' });
  container.append(el);
  /** @type {string | null} */
  let lastOptionsKey = null;
  /** @type {HTMLElement | null} */
  let optionsBox = null;
  let built = false;
  let botLevelChoice = 'medium'; // the level the host's next "Add a bot" seats
  const seatsBox = h('section', { class: 'panel seats-panel', 'aria-labelledby': 'seats-title' });
  const optionsSlot = h('div', { class: 'options-slot' });
  // Open tables' part (the switch, the bots' countdown, "Remove"): import()ed, so that the
  // home page, which loads this module when idle, does not download it for a first visit.
  /** @type {ReturnType<import('../tables/lobby-open.js').createLobbyOpen> | null} */
  let openTable = null;
  let gone = false;
  const openSlot = h('div', { class: 'open-slot' });
  import('../tables/lobby-open.js').then((mod) => {
    if (gone) return;
    openTable = mod.createLobbyOpen(ctx);
    openSlot.append(openTable.openBox);
    update();
  }, () => { /* a page older than the server's files: the lobby works without it */ });

  // The server says which address friends can open (GET /api/invite); until it has
  // answered, and if it cannot, the link uses the page's own address.
  /** @type {import('./invite.js').InviteInfo | null} */
  let inviteInfo = null;
  const inviteField = /** @type {HTMLInputElement} */ (h('input', { id: 'invite-link', type: 'text', readonly: true,
    'aria-label': t('lobby.inviteLink'), onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }));
  const inviteAdvice = h('p', { class: 'note invite-advice', id: 'invite-advice', hidden: true });

  function link() {
    return inviteLink(inviteInfo, ctx.model.code, location.origin);
  }

  function showInvite() {
    inviteField.value = link();
    const advice = loopbackAdvice(inviteInfo);
    setHidden(inviteAdvice, !advice);
    inviteAdvice.textContent = advice ? t(advice.key, advice.vars) : '';
    if (advice) inviteField.setAttribute('aria-describedby', 'invite-advice');
    else inviteField.removeAttribute('aria-describedby');
  }

  // Made once: the lobby's head is built on the first update and kept, so the field and
  // its buttons must stay in it (a box made again on each update took the field away
  // from the page, and the link vanished after the first join).
  const invite = h('div', { class: 'invite' },
    inviteField,
    inviteAdvice,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'copy-link', onclick: copyLink }, icon('copy'), t('lobby.copyLink')),
      typeof navigator.share === 'function'
        ? h('button', { type: 'button', class: 'secondary', id: 'share-link', onclick: share }, icon('share'), t('lobby.share')) : null));

  api.invite().then((answer) => { inviteInfo = answer; showInvite(); }).catch(() => {
    // an older server, or none: the page's own address stays in the link
  });

  async function copyLink() {
    const url = link();
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(url);
        ok = true;
      }
    } catch {
      ok = false;
    }
    if (!ok) {
      const field = /** @type {HTMLInputElement | null} */ (el.querySelector('#invite-link'));
      if (field) { field.focus(); field.select(); }
    }
    toast(ok ? t('lobby.copied') : t('lobby.copyManually'));
    play('select');
  }

  async function share() {
    try {
      await navigator.share({ title: t('app.title'), text: t('lobby.shareText'), url: link() });
    } catch {
      // the player closed the share sheet
    }
  }

  // The host seats a bot in a free seat (choosing its level), and removes one again.
  /** @param {RoomState} state */
  function addBotControls(state) {
    if (!ctx.isHost() || state.phase !== 'lobby') return null;
    const level = /** @type {HTMLSelectElement} */ (h('select', { class: 'bot-level', 'aria-label': t('bots.level'),
      onchange: (/** @type {Event} */ e) => { botLevelChoice = /** @type {HTMLSelectElement} */ (e.target).value; } },
    // a short label in a seat's row (the whole lobby fits a laptop's screen); what the
    // level means on hovering it, as on the home page's picker in full
    BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === botLevelChoice, title: levelChoiceLabel(lv) },
      t(`bots.level.${lv}`)))));
    return h('span', { class: 'add-bot' }, level,
      h('button', { type: 'button', class: 'secondary small add-bot-button',
        onclick: () => ctx.send({ type: 'add_bot', level: level.value }) }, t('bots.add')));
  }

  /**
   * @param {number} seat
   * @param {Player | undefined} player
   * @param {RoomState} state
   * @param {boolean} firstFree
   */
  function seatRow(seat, player, state, firstFree) {
    if (!player) {
      return h('li', { class: 'seat free' },
        h('span', { class: 'seat-back empty', 'aria-hidden': 'true' }),
        h('span', { class: 'seat-name muted', text: t('lobby.freeSeat') }),
        firstFree ? addBotControls(state) : null);
    }
    const me = ctx.model.you ? player.id === ctx.model.you : seat === ctx.model.seat;
    const conn = player.absent ? 'absent' : player.connected ? 'online' : 'offline';
    const badge = botBadge(player);
    return h('li', { class: `seat${me ? ' me' : ''}${badge ? ' bot' : ''}`, dataset: { seat: String(seat) } },
      backEl(player.colour, { mini: true, extraClass: 'seat-back', label: t('lobby.backOf', { name: nameOf(player) }) }),
      h('span', { class: 'seat-name', text: nameOf(player) }),
      h('span', { class: 'seat-tags' },
        player.id === state.host ? h('span', { class: 'tag host', text: t('lobby.host') }) : null,
        me ? h('span', { class: 'tag you', text: t('lobby.you') }) : null,
        ctx.emotes ? ctx.emotes.muteButton(player) : null, // emotes.js: hide this player's emotes
        badge || h('span', { class: `conn conn-${conn}` },
          h('span', { class: 'dot', 'aria-hidden': 'true' }), t(`lobby.${conn}`)),
        openTable ? openTable.removeButton(player, state, me) : null,
        badge && ctx.isHost() && state.phase === 'lobby'
          ? h('button', { type: 'button', class: 'secondary small remove-bot',
            'aria-label': t('bots.removeLabel', { name: nameOf(player) }),
            onclick: () => ctx.send({ type: 'remove_bot', player: player.id }) }, t('bots.remove')) : null));
  }

  function update() {
    const state = ctx.model.state;
    if (!state) return;
    const players = seatedPlayers(state);
    const bySeat = new Map(players.map((p) => [p.seat, p]));
    const max = state.options && state.options.max_players ? state.options.max_players : Math.max(2, players.length);
    const seats = [];
    const shown = Math.max(max, ...players.map((p) => p.seat + 1));
    let firstFree = players.length < max;
    for (let s = 0; s < shown; s++) {
      const player = bySeat.get(s);
      seats.push(seatRow(s, player, state, !player && firstFree));
      if (!player) firstFree = false;
    }
    const host = ctx.isHost();
    const hostPlayer = playerById(state, state.host);
    const hostName = hostPlayer ? hostPlayer.name : null;
    const canStart = players.filter((p) => !p.absent).length >= 2;
    const counting = state.phase === 'countdown';

    showInvite();
    if (openTable) openTable.update(state);

    // Options: the host edits them; rebuilding the selects while one is open would
    // close it, so they are rebuilt only when the options change.
    /** @type {import('./protocol-types.js').RoomOptions} */
    const opts = state.options || {};
    const optionsKey = JSON.stringify([opts, host, ctx.model.status]);
    if (optionsKey !== lastOptionsKey || !optionsBox) {
      lastOptionsKey = optionsKey;
      // the game (Demon or Nerts) and Nerts' house rules come first: everyone reads them
      // before the start (racing/game-fields.js)
      const choice = choiceOf(opts);
      // a control the host was using keeps the focus when the box is made again
      const focused = optionsBox && document.activeElement && optionsBox.contains(document.activeElement)
        ? document.activeElement.id : '';
      if (host) {
        const send = () => ctx.send({ type: 'options', ...fields.read(), ...wireFields(game.read(), opts) });
        const game = gameFields(choice, send, { idPrefix: 'lobby' });
        const fields = optionFields({ rounds: opts.rounds ?? 3, time_limit_s: opts.time_limit_s ?? null,
          max_players: opts.max_players ?? 8 }, send, 'lobby');
        optionsBox = h('section', { class: 'panel lobby-options', 'aria-labelledby': 'opt-title' },
          h('h2', { id: 'opt-title', text: t('lobby.options') }), game.el, fields.el);
      } else {
        optionsBox = h('section', { class: 'panel lobby-options', 'aria-labelledby': 'opt-title' },
          h('h2', { id: 'opt-title', text: t('lobby.options') }),
          h('dl', { class: 'opt-list', id: 'game-choice' }, choiceRows(choice).map(([term, value, hint]) => [
            h('dt', { text: term }),
            h('dd', null, h('span', { class: 'opt-value', text: value }),
              hint ? h('span', { class: 'note house-hint', text: hint }) : null)])),
          h('dl', { class: 'opt-list' },
            h('dt', { text: t('options.rounds') }), h('dd', { text: String(opts.rounds ?? '—') }),
            h('dt', { text: t('options.timeLimit') }), h('dd', { text: timeLimitLabel(opts.time_limit_s ?? null) }),
            h('dt', { text: t('options.maxPlayers') }), h('dd', { text: String(opts.max_players ?? '—') })));
      }
      if (focused) {
        replaceChildren(optionsSlot, optionsBox);
        const again = document.getElementById(focused);
        if (again) again.focus();
      }
    }

    // "Leave" sits beside "Start" (or under the wait), not in a row of its own: with the
    // open-table switch in the code's panel, a row below the options fell off a laptop.
    const leave = h('button', { type: 'button', class: 'secondary', id: 'leave-room', onclick: () => {
      if (window.confirm(t('lobby.leaveConfirm'))) ctx.leave();
    } }, t('lobby.leave'));
    const startArea = host
      ? h('div', { class: 'start-area' },
        h('button', { type: 'button', class: 'primary big', id: 'start-game', disabled: !canStart || counting,
          onclick: () => ctx.send({ type: 'start' }) }, t('lobby.start')),
        leave,
        canStart ? null : h('p', { class: 'note', text: t('lobby.needTwo') }))
      : h('div', { class: 'start-area' },
        // once the host started (a countdown, a rematch's too), nobody waits for them any more
        h('p', { class: 'waiting' }, ctx.model.seat === null ? t('lobby.spectating') + ' ' : '',
          t(counting ? 'lobby.startedBy' : 'lobby.waitingFor', { name: hostName || '?' })),
        leave);

    if (!built) {
      built = true;
      replaceChildren(el,
        h('section', { class: 'panel lobby-head', 'aria-labelledby': 'code-title' },
          h('p', { id: 'code-title', class: 'code-label', text: t('lobby.roomCode') }),
          h('p', { class: 'room-code', id: 'room-code', text: ctx.model.code,
            'aria-label': ctx.model.code.split('').join(' ') }),
          invite, openSlot),
        seatsBox, optionsSlot);
    }
    replaceChildren(seatsBox,
      h('h2', { id: 'seats-title', text: t('lobby.seats', { n: players.length, max }) }),
      openTable ? openTable.fillBox : null,
      h('ul', { class: 'seats' }, seats),
      ctx.emotes ? ctx.emotes.bar() : null, // emotes.js: say hello
      spectatorCount(state) ? h('p', { class: 'note', text: t('lobby.spectators', { n: spectatorCount(state) }) }) : null,
      Array.isArray(state.spectators) && state.spectators.length
        ? h('ul', { class: 'watchers' }, state.spectators.map((p) => h('li', { text: p.name }))) : null,
      startArea);
    if (optionsSlot.firstChild !== optionsBox) replaceChildren(optionsSlot, optionsBox);
  }

  return {
    update,
    // a refused option change: show the room's real options again
    onError: () => { lastOptionsKey = null; update(); },
    tick: () => { if (openTable) openTable.tick(); }, // a play-now lobby's seconds to its bots
    /** @returns {import('./room.js').KeyHelp} */
    keys: () => [[t('keys.lobby'), [['Tab', t('keys.tab')], ['Enter', t('keys.lobbyEnter')]]]],
    destroy() { gone = true; el.remove(); },
  };
}
