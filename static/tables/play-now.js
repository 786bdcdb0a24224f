// "Play now": one button that seats the visitor with strangers on this server
// (POST /api/play-now). The server picks the best open lobby of the chosen game, or
// opens a new table whose lobby fills with bots of the chosen level when its wait is
// over (the lobby counts it down: demon/lobby.js); either way the page goes to the room
// as after a join. With several processes the table may be on another one: the answer
// then names its code only, and the page joins it as by its code.

import { h, replaceChildren } from '../common/dom.js';
import { t, getLang } from '../common/i18n.js';
import { api, ApiError } from '../common/api.js';
import { getPref, setPref, setRoomCreds } from '../common/storage.js';
import { errorText } from '../common/ui.js';
import { BOT_LEVELS, levelChoiceLabel } from '../demon/bot-badge.js';
import { GAMES, gameName } from '../racing/game-options.js';
import { playNowStep, playNowErrorKey, pressAgain } from './tables-model.js';

/** @typedef {import('../racing/game-options.js').Game} Game */
/** @typedef {import('../common/api.js').SeatGrant} SeatGrant */

// POST /api/play-now: the answer as it came (tables-model.js playNowStep reads it), or an
// ApiError with the status and the server's words, as common/api.js throws.
/**
 * @param {{ name: string, level: string, language: string, game: Game, avoid: string[] }} body
 * @returns {Promise<unknown>}
 */
async function postPlayNow(body) {
  let response;
  try {
    response = await fetch('/api/play-now', { method: 'POST', cache: 'no-store', credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network');
  }
  /** @type {{ detail?: unknown } | null} */
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data && typeof data.detail === 'string' ? data.detail : `HTTP ${response.status}`, data);
  }
  return data;
}

/**
 * @param {{ navigate: (path: string) => void, name: import('./open-tables.js').NameField }} options
 */
export function createPlayNow({ navigate, name }) {
  // the bots' level is the one "Play against bots" chose last (the same preference)
  let level = String(getPref('practiceLevel', 'medium'));
  if (!BOT_LEVELS.some((lv) => lv === level)) level = 'medium';
  /** @type {Game} */
  let game = 'demon';
  let busy = false;
  let error = '';
  const el = h('form', { class: 'panel play-now', id: 'play-now-form', 'aria-labelledby': 'play-now-title', onsubmit: submit });
  /** @type {HTMLInputElement | null} */
  let nameInput = null;

  function draw() {
    nameInput = name.input('play-now-name');
    const games = h('fieldset', { class: 'game-choice play-now-game' },
      h('legend', { text: t('game.label') }),
      GAMES.map((g) => h('label', { for: `play-now-game-${g}`, class: 'game-option' },
        h('input', { type: 'radio', name: 'play-now-game', id: `play-now-game-${g}`, value: g, checked: g === game,
          onchange: () => { game = g; } }),
        h('span', { class: 'game-option-name', text: gameName(g, t) }))));
    // the levels by their short names (a phone's select cuts a long one), what the chosen
    // one means below it, read with it
    const hint = h('p', { class: 'note level-hint', id: 'play-now-level-hint', text: levelChoiceLabel(level) });
    const levels = h('select', { id: 'play-now-level', name: 'level', 'aria-describedby': hint.id,
      onchange: (/** @type {Event} */ e) => {
        level = /** @type {HTMLSelectElement} */ (e.target).value;
        setPref('practiceLevel', level);
        hint.textContent = levelChoiceLabel(level);
      } },
    BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === level }, t(`bots.level.${lv}`))));
    replaceChildren(el,
      h('h2', { id: 'play-now-title', text: t('tables.playNowTitle') }),
      h('p', { class: 'lead', text: t('tables.playNowLead') }),
      h('label', { for: 'play-now-name' }, h('span', { text: t('home.yourName') }), nameInput),
      h('div', { class: 'game-fields' }, games),
      h('label', { for: 'play-now-level' }, h('span', { text: t('tables.botLevel') }), levels), hint,
      error ? h('p', { class: 'error', role: 'alert', text: error }) : null,
      h('button', { type: 'submit', class: 'primary big', id: 'play-now', disabled: busy }, t('tables.playNow')));
  }

  /** @param {SubmitEvent} e */
  async function submit(e) {
    e.preventDefault();
    const who = name.clean();
    if (!who) { error = t('home.nameNeeded'); draw(); focusName(); return; }
    busy = true; error = ''; draw();
    try {
      const grant = await seatFor(who);
      setRoomCreds(grant.code, { code: grant.code, token: grant.token, seat: grant.seat,
        you: grant.you ?? null, spectator: grant.spectator, name: who });
      navigate(`/r/${grant.code}`);
    } catch (err) {
      busy = false;
      const status = /** @type {{status?: unknown}} */ (err).status;
      const key = typeof status === 'number' ? playNowErrorKey(status) : null;
      error = key ? t(key) : errorText(err);
      draw();
      const shown = el.querySelector('.error');
      if (shown) shown.scrollIntoView({ block: 'nearest' });
    }
  }

  // A seat from "Play now": the one it gave, or one at the table it named on another
  // process, joined as by its code; refused there, pressed again without that table.
  /**
   * @param {string} who
   * @returns {Promise<SeatGrant>}
   */
  async function seatFor(who) {
    /** @type {string[]} */
    const avoid = [];
    for (;;) {
      const answer = await postPlayNow({ name: who, level, language: getLang(), game, avoid });
      const step = playNowStep(answer);
      if (!step) throw new Error('not a seat');
      if (step.kind === 'seat') return /** @type {SeatGrant} */ (answer);
      try {
        return await api.joinRoom(step.code, who, true);
      } catch (err) {
        const status = /** @type {{status?: unknown}} */ (err).status;
        if (typeof status !== 'number' || !pressAgain(status, avoid.length + 1)) throw err;
        avoid.push(step.code);
      }
    }
  }

  function focusName() {
    const field = nameInput && nameInput.isConnected ? nameInput : null;
    if (field) field.focus();
  }

  draw();
  return { el, draw, focusName };
}
