// Emotes in a Demon room ("Say hello": a greeting over a seat): the buttons that send one, the emote
// floating over its sender's seat, the polite words for a screen reader, and a toggle per
// player that hides theirs in this browser. The room page makes one of these
// (`createEmotes`); the lobby and the table only place what it hands them (`bar`, `dock`,
// `muteButton`), so their own redraws never lose what is shown here. The decisions are
// in emote-model.js; the server checks the set and the pace (app/rooms/emotes.py).

import { h, toast, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { viewKind } from './room-model.js';
import { getMutedEmotes, setMutedEmotes } from '../common/storage.js';
import { EMOTES, SHOW_MS, cooldownLeft, mutedIn, setMuted, emoteTarget, emoteWords } from './emote-model.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const FACE = 'M21 12a9 9 0 1 1-18 0a9 9 0 1 1 18 0';
const EYES = ['M9 10h.01', 'M15 10h.01'];
/** @type {Record<string, string[]>} */
const PATHS = {
  wave: ['M8.5 12.5V6a1.25 1.25 0 0 1 2.5 0v5', 'M11 10.5V4.5a1.25 1.25 0 0 1 2.5 0v6',
    'M13.5 10.5V5.5a1.25 1.25 0 0 1 2.5 0v5.5',
    'M16 11V8.5a1.25 1.25 0 0 1 2.5 0V14a7 7 0 0 1-7 7h-.6a6 6 0 0 1-4.6-2.2l-2.8-3.5a1.4 1.4 0 0 1 2.1-1.8l2 1.8V12.5',
    'M3.5 8.5q.3-2.8 3-4.5', 'M20 3.5q1.4 1 1.5 2.8'],
  thumbs_up: ['M3 10.5h4v9.5H3z', 'M7 11l3.2-6.4a1.9 1.9 0 0 1 3.5 1.3L13 9.5h5.3a2 2 0 0 1 2 2.4l-1.3 6.5a2 2 0 0 1-2 1.6H7'],
  laugh: [FACE, 'M7.5 10q1.25-1.6 2.5 0', 'M14 10q1.25-1.6 2.5 0', 'M7.5 13.5h9a4.5 4.5 0 0 1-9 0z'],
  wow: [FACE, ...EYES, 'M7.5 7.2q1.5-1 3 0', 'M13.5 7.2q1.5-1 3 0', 'M13.8 16a1.8 1.8 0 1 1-3.6 0a1.8 1.8 0 1 1 3.6 0'],
  sad: [FACE, ...EYES, 'M8.5 16.5q3.5-3 7 0'],
  gg: ['M5 6h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z', 'M10.3 9.4A2.6 3.4 0 1 0 11.2 12.2H9.1', 'M17.1 9.4A2.6 3.4 0 1 0 18 12.2H15.9'],
  smile: [FACE, ...EYES, 'M8.5 14q3.5 3 7 0'],
  shown: ['M4 5h16v11H10l-5 4v-4H4z'],
  hidden: ['M4 5h16v11H10l-5 4v-4H4z', 'M3 3l18 18'],
};

// An emote's picture, drawn with SVG paths like dom.js `icon` ("GG" too: drawn text would
// be visible text that the button's name, "Good game", does not contain).
/**
 * @param {string} name
 * @param {string} [extraClass]
 */
function picture(name, extraClass = '') {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon emote-icon ${extraClass}`.trim());
  svg.setAttribute('aria-hidden', 'true');
  for (const d of PATHS[name] || []) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

// `host`: where the floating emotes and the spoken words live (the room page's wrapper);
// `model`: the room model (state, you, seat); `send`: the socket's send (false offline).
/** @typedef {import('./room-model.js').RoomModel} RoomModel */
/** @typedef {import('./protocol-types.js').EmoteMessage} EmoteMessage */
/** @typedef {import('./protocol-types.js').ErrorMessage} ErrorMessage */
/** @typedef {import('./protocol-types.js').ClientMessage} ClientMessage */
/** @typedef {{el: Element, at: 'end' | 'middle'}} Anchor */

/**
 * @param {HTMLElement} host
 * @param {{model: RoomModel, send: (msg: ClientMessage) => boolean, code: string}} options
 */
export function createEmotes(host, { model, send, code }) {
  /** @type {number | null} */
  let sentAt = null;
  /** @type {number | undefined} */
  let coolTimer;
  /** @type {Map<string, HTMLElement>} player id -> the emote floating for them now */
  const floats = new Map();
  const layer = h('div', { class: 'emote-layer', 'aria-hidden': 'true' });
  const said = h('div', { class: 'sr-only', id: 'emotes-said', role: 'log', 'aria-live': 'polite' });
  host.append(layer, said);

  function muted() { return mutedIn(getMutedEmotes(), code); }

  /** @param {string} prefix */
  function buttons(prefix) {
    return EMOTES.map((name) => h('button', { type: 'button', class: 'emote-btn',
      dataset: { emote: name, focus: `${prefix}-${name}` },
      'aria-label': t(`emote.${name}`), title: t(`emote.${name}`),
      onclick: () => pick(name) }, picture(name)));
  }

  // The lobby's bar: the six buttons in a row.
  const lobbyBar = h('div', { class: 'emote-bar', role: 'group', 'aria-label': t('emote.bar') }, buttons('emote-bar'));

  // The table's: one button that opens the six (the table keeps its height for the cards).
  const pop = h('div', { class: 'emote-pop', id: 'emote-pop', role: 'group', 'aria-label': t('emote.bar'),
    hidden: true, onkeydown: popKey }, buttons('emote-pop'));
  const toggle = h('button', { type: 'button', class: 'emote-toggle', id: 'emote-toggle',
    'aria-expanded': 'false', 'aria-controls': 'emote-pop', 'aria-label': t('emote.open'), title: t('emote.open'),
    dataset: { focus: 'emote-toggle' }, onclick: () => open(pop.hidden) }, picture('smile'));
  const tableDock = h('div', { class: 'emote-dock' }, toggle, pop);

  /** @param {boolean} yes */
  function open(yes) {
    pop.hidden = !yes;
    toggle.setAttribute('aria-expanded', String(yes));
    if (yes) {
      document.addEventListener('pointerdown', outside, true);
      const first = /** @type {HTMLElement | null} */ (pop.querySelector('.emote-btn'));
      if (first) first.focus();
    } else {
      document.removeEventListener('pointerdown', outside, true);
    }
  }

  /** @param {PointerEvent} e */
  function outside(e) {
    if (!tableDock.contains(/** @type {Node | null} */ (e.target))) open(false);
  }

  // Inside the open popover: Escape closes it, the arrows go from emote to emote (and
  // neither reaches the table's own keys, which would move the focus to your cards).
  /** @param {KeyboardEvent} e */
  function popKey(e) {
    const all = [.../** @type {NodeListOf<HTMLElement>} */ (pop.querySelectorAll('.emote-btn'))];
    const i = all.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (e.key === 'Escape') {
      open(false);
      toggle.focus();
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && i >= 0) {
      all[(i + (e.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length].focus();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  /** @param {string} name */
  function pick(name) {
    if (model.seat === null || cooldownLeft(sentAt, performance.now()) > 0) return;
    if (!send({ type: 'emote', emote: name })) {
      toast(t('table.offline'), 'warn');
      return;
    }
    cool(performance.now());
    if (!pop.hidden) {
      const focused = pop.contains(document.activeElement);
      open(false);
      if (focused) toggle.focus();
    }
  }

  // The buttons rest for emote-model.js COOLDOWN_MS after an emote of yours (sent, or come back).
  /** @param {number} at */
  function cool(at) {
    sentAt = at;
    paintCooldown();
    clearTimeout(coolTimer);
    coolTimer = setTimeout(paintCooldown, cooldownLeft(sentAt, performance.now()) + 20);
  }

  function paintCooldown() {
    const resting = cooldownLeft(sentAt, performance.now()) > 0;
    for (const el of [lobbyBar, tableDock]) {
      el.classList.toggle('cooling', resting);
      for (const b of el.querySelectorAll('.emote-btn')) {
        if (resting) b.setAttribute('aria-disabled', 'true'); else b.removeAttribute('aria-disabled');
      }
    }
  }

  // ---- an emote from the server --------------------------------------------------
  /** @param {EmoteMessage} msg */
  function show(msg) {
    if (!msg || !EMOTES.includes(msg.emote) || typeof msg.player !== 'string') return;
    const mine = msg.player === model.you;
    if (mine) cool(performance.now());
    const target = emoteTarget(model.state, { id: msg.player, you: model.you, view: viewKind(model.state), muted: muted() });
    if (!target) return;
    // (a target means the state holds the sender: emoteTarget found them there)
    const player = ((model.state && model.state.players) || []).find((p) => p.id === msg.player);
    const words = emoteWords(msg.emote, { t, name: mine ? t('say.you') : player ? player.name : '' });
    said.append(h('p', { text: words }));
    while (said.firstElementChild && said.childElementCount > 3) said.firstElementChild.remove();
    float(msg.player, msg.emote, anchorOf(target));
  }

  // The element an emote floats over (and where on it), or null when it is not shown.
  /**
   * @param {{kind: 'row' | 'mine' | 'opp', seat: number}} target
   * @returns {Anchor | null}
   */
  function anchorOf(target) {
    const root = host.isConnected ? host : document;
    if (target.kind === 'row') {
      const row = root.querySelector(`.lobby li.seat[data-seat="${target.seat}"]`);
      const name = row && row.querySelector('.seat-name');
      return name ? { el: name, at: 'end' } : null;
    }
    if (target.kind === 'mine') { // beside your name, not over the cards you are racing with
      const mine = root.querySelector('.table .mine');
      const tag = mine && (mine.querySelector('.mine-head .tag.you') || mine.querySelector('.mine-head'));
      return tag ? { el: tag, at: 'end' } : null;
    }
    const panel = root.querySelector(`.opponents .opp[data-seat="${target.seat}"]`);
    return panel ? { el: panel, at: 'middle' } : null;
  }

  // Where an element's text ends (a name's box may stretch across its row).
  /** @param {Element} el */
  function textBox(el) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const box = range.getBoundingClientRect();
    return box.width ? box : el.getBoundingClientRect();
  }

  /**
   * @param {string} id
   * @param {string} emote
   * @param {Anchor | null} anchor
   */
  function float(id, emote, anchor) {
    const old = floats.get(id);
    if (old) old.remove();
    floats.delete(id);
    if (!anchor) return;
    const box = anchor.at === 'end' ? textBox(anchor.el) : anchor.el.getBoundingClientRect();
    if (!box.width && !box.height) return; // hidden
    const node = h('div', { class: `emote-float at-${anchor.at}`, dataset: { player: id, emote } },
      h('span', { class: 'emote-bubble' }, picture(emote)));
    const x = anchor.at === 'end' ? Math.min(box.right + 30, window.innerWidth - 30) : box.left + box.width / 2;
    const y = box.top + box.height / 2;
    node.style.left = `${Math.round(x)}px`;
    node.style.top = `${Math.round(y)}px`;
    node.style.setProperty('--emote-show', `${SHOW_MS}ms`);
    layer.append(node);
    floats.set(id, node);
    setTimeout(() => {
      node.remove();
      if (floats.get(id) === node) floats.delete(id);
    }, SHOW_MS);
  }

  // ---- hiding a player's emotes ----------------------------------------------------
  // A toggle for one other person's emotes (none for yourself, a bot or a free seat).
  /**
   * @param {{id?: string, name: string, bot?: string | null} | null | undefined} player
   * @returns {HTMLElement | null}
   */
  function muteButton(player) {
    if (!player || !player.id || player.id === model.you || player.bot) return null;
    const id = player.id;
    /** @type {HTMLElement} */
    const button = h('button', { type: 'button', class: 'emote-mute',
      dataset: { focus: `emote-mute-${player.id}`, player: player.id },
      'aria-label': t('emote.mute', { name: player.name }), title: t('emote.mute', { name: player.name }),
      onclick: () => setMute(id, button.getAttribute('aria-pressed') !== 'true') });
    paintMute(button, muted().has(id));
    return button;
  }

  /**
   * @param {Element} button
   * @param {boolean} hidden
   */
  function paintMute(button, hidden) {
    button.setAttribute('aria-pressed', String(hidden));
    button.replaceChildren(picture(hidden ? 'hidden' : 'shown'));
  }

  /**
   * @param {string} id
   * @param {boolean} hidden
   */
  function setMute(id, hidden) {
    setMutedEmotes(setMuted(getMutedEmotes(), code, id, hidden, Date.now()));
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (host.querySelectorAll('.emote-mute'))) {
      if (b.dataset.player === id) paintMute(b, hidden);
    }
    const floating = floats.get(id);
    if (hidden && floating) {
      floating.remove();
      floats.delete(id);
    }
  }

  // The words of the buttons, again when the page's language changed.
  let labelled = t('lang.code');
  function relabel() {
    if (labelled === t('lang.code')) return;
    labelled = t('lang.code');
    for (const b of /** @type {HTMLElement[]} */ ([...lobbyBar.children, ...pop.children])) {
      b.setAttribute('aria-label', t(`emote.${b.dataset.emote}`));
      b.title = t(`emote.${b.dataset.emote}`);
    }
    for (const el of [lobbyBar, pop]) el.setAttribute('aria-label', t('emote.bar'));
    toggle.setAttribute('aria-label', t('emote.open'));
    toggle.title = t('emote.open');
  }

  // After each render of the room: only a seated player has the buttons.
  function update() {
    relabel();
    const seated = model.seat !== null && model.seat !== undefined;
    setHidden(lobbyBar, !seated); // after every drawing: written only when it changes
    setHidden(tableDock, !seated);
    if (!seated && !pop.hidden) open(false);
  }

  return {
    show,
    bar: () => lobbyBar,
    dock: () => tableDock,
    muteButton,
    update,
    // A refusal of an emote (sent in the last moment of a cooldown, or from a seat that
    // just became a spectator's) needs no toast: the buttons already show the wait.
    /** @param {ErrorMessage} msg */
    onError: (msg) => Boolean(msg && (msg.code === 'slow_down'
      || (msg.code === 'spectator' && sentAt !== null && performance.now() - sentAt < 3000))),
    destroy() {
      clearTimeout(coolTimer);
      document.removeEventListener('pointerdown', outside, true);
      layer.remove();
      said.remove();
    },
  };
}
