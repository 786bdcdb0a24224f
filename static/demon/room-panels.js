// The Demon room page's own panels (the lobby and the table are views of their own):
// the connection banner, the countdown overlay, the "Demon!" (or "Nerts!") call, and the
// form that joins a room from its link.

import { h, replaceChildren, button, animationsOff, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { getPref, setPref } from '../common/storage.js';
import { play } from '../common/sound.js';
import { botBadge, nameOf } from './bot-badge.js';
import { errorText } from '../common/ui.js';
import { joinProspect } from './round-status.js';
import { callKey, gameName, gameOf } from '../racing/game-options.js';

// The line above the room saying whether the socket is connected.
/**
 * @param {HTMLElement} el
 * @param {{status: string, hasState: boolean, leaving?: boolean}} conn
 * @param {() => void} onReconnect
 */
export function drawBanner(el, { status, hasState, leaving }, onReconnect) {
  // drawn on every event: the class is written only when it changes (a write, even of the
  // same value, makes the browser check the page's styles again)
  const cls = `conn-banner conn-${status}`;
  if (el.className !== cls) el.className = cls;
  if (status === 'reconnecting' || (status === 'connecting' && hasState)) {
    replaceChildren(el, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('room.reconnecting'));
  } else if (status === 'lost') {
    replaceChildren(el, t('room.lost'), ' ', button(t('room.reconnect'), onReconnect));
  } else if (status === 'replaced') {
    replaceChildren(el, t('room.replaced'), ' ', button(t('room.takeBack'), onReconnect));
  } else if (status === 'outdated') {
    replaceChildren(el, t('nertsTable.outdated'), ' ', button(t('nertsTable.reload'), () => location.reload()));
  } else if (status === 'closed' && !leaving) {
    replaceChildren(el, t('room.closed'), ' ', button(t('room.reconnect'), onReconnect));
  } else {
    replaceChildren(el);
  }
  document.body.classList.toggle('offline', status !== 'online');
}

// The 3-2-1 overlay (with a tick per second) and the "Go!" that follows it.
/** @param {HTMLElement} overlay */
export function createCountdown(overlay) {
  /** @type {number | null} */
  let lastBeep = null;
  return {
    // A countdown (re)started: its first second beeps again.
    reset() { lastBeep = null; },
    /**
     * @param {number | null} countdownEnd
     * @param {number} now
     */
    tick(countdownEnd, now) {
      if (countdownEnd !== null && countdownEnd > now - 100) {
        const n = Math.max(1, Math.ceil((countdownEnd - now) / 1000));
        setHidden(overlay, false); // every 200 ms: written only when it changes
        if (overlay.dataset.n !== String(n)) {
          overlay.dataset.n = String(n);
          replaceChildren(overlay, h('div', { class: 'countdown-box' },
            h('span', { class: 'countdown-label', text: t('room.getReady') }),
            h('span', { class: 'countdown-n', text: String(n) })));
          if (lastBeep !== n) { lastBeep = n; play('tick'); }
        }
      } else if (!overlay.classList.contains('go')) {
        setHidden(overlay, true);
        if (overlay.dataset.n !== undefined) delete overlay.dataset.n;
      }
    },
    go() {
      play('go');
      overlay.hidden = false;
      overlay.classList.add('go');
      delete overlay.dataset.n;
      replaceChildren(overlay, h('div', { class: 'countdown-box' }, h('span', { class: 'countdown-n', text: t('room.go') })));
      setTimeout(() => { overlay.classList.remove('go'); overlay.hidden = true; }, 700);
    },
    // Drawn again in the page's language at the next tick.
    forget() { delete overlay.dataset.n; },
  };
}

// The end of a round: "Demon!" (in a Nerts room "Nerts!") and the winner's name across
// the screen with a burst of suits in the winner's colour (none with animations off), or
// a sound. `colour` is the winner's card-back colour (a CSS colour) or null.
const SUITS = ['♠', '♥', '♦', '♣'];
/**
 * @param {import('./protocol-types.js').RoundResult} result
 * @param {import('./bot-badge.js').Named | null} winner
 * @param {string | null} [colour]
 */
export function announce(result, winner, colour = null) {
  const call = callKey(result.reason);
  if (!call) {
    play('end');
    return;
  }
  play('win');
  const box = h('div', { class: 'demon-call', role: 'alert' },
    h('span', { class: 'demon-word', text: t(call) }),
    h('span', { class: 'demon-name', text: winner ? nameOf(winner) : '?' }, botBadge(winner)));
  const burst = h('div', { class: 'demon-burst', 'aria-hidden': 'true' });
  if (colour) burst.style.setProperty('--seat', colour);
  const bits = animationsOff() ? 0 : 28; // animations off (the setting): the call alone
  for (let i = 0; i < bits; i++) {
    const bit = h('span', { class: `burst-bit${i % 4 === 1 || i % 4 === 2 ? ' red' : ''}`, text: SUITS[i % 4] });
    const angle = (i / 28) * 2 * Math.PI + Math.random() * 0.3;
    const reach = 28 + Math.random() * 22; // vmin
    bit.style.setProperty('--dx', `${Math.cos(angle) * reach}vmin`);
    bit.style.setProperty('--dy', `${Math.sin(angle) * reach}vmin`);
    bit.style.setProperty('--spin', `${Math.round((Math.random() - 0.5) * 720)}deg`);
    bit.style.setProperty('--delay', `${Math.round(Math.random() * 250)}ms`);
    burst.append(bit);
  }
  document.body.append(burst, box);
  setTimeout(() => box.classList.add('out'), 2300);
  setTimeout(() => { box.remove(); burst.remove(); }, 2800);
}

// What joining now gives, truthfully: a seat at the next round, or only a view.
/** @param {'next' | 'watch' | null} prospect */
function prospectNote(prospect) {
  if (!prospect) return null;
  return h('p', { class: 'note join-prospect', text: t(prospect === 'next' ? 'room.joinNextRound' : 'room.fullWatch') });
}

// Joining by the room's link: who is there, a name, Join. `onJoined(creds)` gets the
// new seat; `stillWanted()` turns false once the page has moved on.
/**
 * GET /api/rooms/{code}: who is in the room, and whether a seat is free.
 * @typedef {{phase?: string, game?: string, free_seats?: number, players?: {name: string, bot?: string | null}[]}} RoomSummary
 */

/**
 * @param {HTMLElement} stage
 * @param {{code: string, error: string, navigate: (path: string) => void,
 *   onJoined: (creds: import('./room-model.js').RoomCreds) => void, stillWanted: () => boolean}} options
 */
export function showJoinForm(stage, { code, error, navigate, onJoined, stillWanted }) {
  /** @type {RoomSummary | false | null} false: no such room; null: not known (yet) */
  let info = null;
  let busy = false;
  let joinError = error;
  let name = getPref('name', '');
  function draw() {
    if (!stillWanted()) return;
    const nameInput = h('input', { id: 'link-name', type: 'text', maxlength: '20', required: true,
      autocomplete: 'nickname', value: name, oninput: (/** @type {Event} */ e) => { name = /** @type {HTMLInputElement} */ (e.target).value; } });
    const players = info && info.players ? h('ul', { class: 'join-players' },
      info.players.map((p) => h('li', null, nameOf(p), botBadge(p) ? ' ' : null, botBadge(p)))) : null;
    replaceChildren(stage, h('form', { class: 'panel join-link', onsubmit: submit },
      h('h1', null, t('room.joinTitle'), ' ', h('span', { class: 'code-small', text: code })),
      info === false ? h('p', { class: 'error', role: 'alert', text: t('home.noSuchRoom') }) : null,
      // which game the room plays, when the server says (racing/game-options.js)
      info ? h('p', { class: 'join-game', text: t('game.playing', { game: gameName(gameOf(info), t) }) }) : null,
      players,
      prospectNote(joinProspect(info)),
      joinError ? h('p', { class: 'error', role: 'alert', text: joinError }) : null,
      h('label', { for: 'link-name' }, h('span', { text: t('home.yourName') }), nameInput),
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'primary', id: 'join-by-link', disabled: busy || info === false }, t('home.joinButton')),
        h('a', { href: '/', class: 'button secondary', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); navigate('/'); } }, t('room.backHome')))));
    if (!name) nameInput.focus();
  }
  /** @param {SubmitEvent} e */
  async function submit(e) {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) { joinError = t('home.nameNeeded'); draw(); return; }
    busy = true; draw();
    try {
      const answer = await api.joinRoom(code, clean);
      setPref('name', clean);
      onJoined({ code: answer.code, token: answer.token, seat: answer.seat,
        you: answer.you ?? null, spectator: answer.spectator, name: clean });
    } catch (err) {
      busy = false;
      const status = /** @type {{status?: number}} */ (err).status;
      joinError = status === 404 ? t('home.noSuchRoom') : status === 403 ? t('daily.roomClosed') : errorText(err);
      draw();
    }
  }
  api.getRoom(code).then((data) => { info = data; draw(); })
    .catch((err) => {
      info = err.status === 404 ? false : null;
      if (err.status === 403) joinError = t('daily.roomClosed'); // today's daily race: not watched
      draw();
    });
  draw();
}
