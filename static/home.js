// Home: create a Demon room, join one by its code, play Devil's Grip, read the rules,
// and (when the server keeps them) the recent games: the visitor's own, asked for with the
// seats this browser keeps, and those of rooms whose host listed them (recent-games.js).

import { h, rememberFocus, replaceChildren } from './common/dom.js';
import { t } from './common/i18n.js';
import { api } from './common/api.js';
import { getPref, getRoomCreds, listRoomCreds, setPref, setRoomCreds } from './common/storage.js';
import { showRules } from './common/rules.js';
import { backEl, cardEl } from './cards/cards.js';
import { BOT_LEVELS, botBadge, levelChoiceLabel, nameOf } from './demon/bot-badge.js';
import { errorText, optionFields } from './common/ui.js';
import { markGuidedRoom } from './guide/guide.js';
import { mergeRecent, seatsToAsk, gameOfMatch, recentWhen } from './recent-games.js';
import { HOUSE_RULE_DEFAULTS, gameName, wireFields } from './racing/game-options.js';
import { gameFields } from './racing/game-fields.js';
// ---- open tables and "Play now" (tables/open-tables.js) ----
import { createOpenTables } from './tables/open-tables.js';

/**
 * @param {HTMLElement} container
 * @param {{navigate: (path: string) => void}} options
 */
export function mount(container, { navigate }) {
  let destroyed = false;
  /** @type {import('./recent-games.js').RecentGame[] | null} */
  let history = null;
  /**
   * @type {{name: string, code: string, listed: boolean,
   *   options: {rounds: number, time_limit_s: number | null, max_players: number},
   *   practice: {bots: number, level: string},
   *   createGame: import('./racing/game-options.js').GameChoice,
   *   practiceGame: import('./racing/game-options.js').GameChoice}}
   */
  const form = { name: getPref('name', ''), code: '', listed: false,
    options: { rounds: 3, time_limit_s: null, max_players: 8 },
    practice: { bots: Number(getPref('practiceBots', 3)) || 3, level: getPref('practiceLevel', 'medium') },
    // the game each form starts (Demon unless the visitor picks Nerts)
    createGame: { game: 'demon', house_rules: { ...HOUSE_RULE_DEFAULTS } },
    practiceGame: { game: 'demon', house_rules: { ...HOUSE_RULE_DEFAULTS } } };
  // which "House rules" disclosures are open, kept when the page is drawn again
  /** @type {Set<string>} */
  const openRules = new Set();
  if (!BOT_LEVELS.some((lv) => lv === form.practice.level)) form.practice.level = 'medium';
  // ---- open tables and "Play now": their own section, made once and kept across redraws ----
  const openTables = createOpenTables({ navigate, name: { input: nameInput, clean: cleanName } });
  let busy = false;
  let error = { create: '', join: '', practice: '' };

  // Listed rooms' matches and this browser's own, asked at once; one that fails is left out.
  /** @param {Promise<{games?: unknown} | null>} ask */
  const games = (ask) => ask.then((data) => (data && Array.isArray(data.games) ? data.games : []), () => []);
  Promise.all([games(api.history()),
    ...seatsToAsk(listRoomCreds()).map((seat) => games(api.seatHistory(seat.code, seat.token)))])
    .then((lists) => { if (!destroyed) { history = mergeRecent(lists); render(); } });

  /** @param {string} id */
  function nameInput(id) {
    return h('input', { id, name: 'name', type: 'text', maxlength: '20', autocomplete: 'nickname', dataset: { focus: id },
      required: true, value: form.name, placeholder: t('home.namePlaceholder'),
      oninput: (/** @type {Event} */ e) => { const input = /** @type {HTMLInputElement} */ (e.target); form.name = input.value; syncNames(input); } });
  }

  /** @param {HTMLInputElement} source */
  function syncNames(source) {
    /** @type {NodeListOf<HTMLInputElement>} */ (container.querySelectorAll('input[name="name"]')).forEach((el) => { if (el !== source) el.value = form.name; });
  }

  function cleanName() {
    const name = form.name.trim();
    if (!name || name.length > 20) return null;
    setPref('name', name);
    return name;
  }

  /** @param {SubmitEvent} e */
  async function create(e) {
    e.preventDefault();
    const name = cleanName();
    if (!name) { error.create = t('home.nameNeeded'); render(); return; }
    busy = true; error.create = ''; render();
    try {
      const answer = await api.createRoom(name, { ...form.options, listed: form.listed, ...wireFields(form.createGame),
        ...openTables.createFields() });
      setRoomCreds(answer.code, { code: answer.code, token: answer.token, seat: answer.seat,
        you: answer.you ?? null, spectator: answer.spectator, name });
      navigate(`/r/${answer.code}`);
    } catch (err) {
      busy = false;
      error.create = errorText(err);
      if (!destroyed) render();
    }
  }

  // "Play against bots": a room of you and the bots, whose countdown is already running.
  /** @param {SubmitEvent} e */
  async function practice(e) {
    e.preventDefault();
    const name = cleanName();
    if (!name) { error.practice = t('home.nameNeeded'); render(); return; }
    busy = true; error.practice = ''; render();
    setPref('practiceBots', form.practice.bots);
    setPref('practiceLevel', form.practice.level);
    // "Practice round with a guide": one round against one easy bot, coached (guide.js)
    const guided = Boolean(e.submitter && e.submitter.id === 'guide-practice');
    try {
      const answer = guided ? await api.practiceRoom(name, 1, 'easy', 1)
        : await api.practiceRoom(name, form.practice.bots, form.practice.level, form.options.rounds,
          wireFields(form.practiceGame));
      if (guided) markGuidedRoom(answer.code);
      setRoomCreds(answer.code, { code: answer.code, token: answer.token, seat: answer.seat,
        you: answer.you ?? null, spectator: answer.spectator, name });
      navigate(`/r/${answer.code}`);
    } catch (err) {
      busy = false;
      error.practice = errorText(err);
      if (!destroyed) render();
    }
  }

  /** @param {SubmitEvent} e */
  async function join(e) {
    e.preventDefault();
    const name = cleanName();
    const code = form.code.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
    if (!code) { error.join = t('home.codeNeeded'); render(); return; }
    if (!name) { error.join = t('home.nameNeeded'); render(); return; }
    busy = true; error.join = ''; render();
    try {
      const answer = await api.joinRoom(code, name);
      setRoomCreds(answer.code, { code: answer.code, token: answer.token, seat: answer.seat,
        you: answer.you ?? null, spectator: answer.spectator, name });
      navigate(`/r/${answer.code}`);
    } catch (err) {
      busy = false;
      error.join = /** @type {{status?: number}} */ (err).status === 404 ? t('home.noSuchRoom') : errorText(err);
      if (!destroyed) render();
    }
  }

  // The game a form starts, Demon or Nerts, with Nerts' house rules behind a disclosure.
  /**
   * @param {'createGame' | 'practiceGame'} which
   * @param {string} idPrefix
   * @param {(choice: import('./racing/game-options.js').GameChoice) => void} [then]
   */
  function gamePicker(which, idPrefix, then = () => {}) {
    const fields = gameFields(form[which], (choice) => { form[which] = choice; then(choice); }, { idPrefix, disclose: true });
    const details = fields.el.querySelector('details');
    if (details) {
      details.open = openRules.has(idPrefix);
      details.addEventListener('toggle', () => {
        if (details.open) openRules.add(idPrefix); else openRules.delete(idPrefix);
      });
    }
    return fields.el;
  }

  /** @param {import('./racing/game-options.js').GameChoice} choice */
  const createTitle = (choice) => t(choice.game === 'nerts' ? 'home.createTitleNerts' : 'home.createTitle');

  // A second skip link while the home page shows, after the page's own "Skip to the
  // game": a newcomer reaches "Play against bots" in two Tabs, not sixteen.
  const skipToPractice = h('a', { class: 'skip', id: 'skip-practice', href: '#practice-name',
    onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); document.getElementById('practice-name')?.focus(); } });
  document.querySelector('a.skip')?.after(skipToPractice);

  function render() {
    // before building: putting `openTables.el` into the new page moves it, which blurs
    // its "Play now" name field while somebody may be typing in it
    const focus = rememberFocus(container);
    skipToPractice.textContent = t('home.skipPractice');
    const opts = optionFields(form.options, () => { form.options = opts.read(); }, 'create');
    const title = h('h2', { id: 'create-title', text: createTitle(form.createGame) });
    const createForm = h('form', { class: 'panel create', onsubmit: create, 'aria-labelledby': 'create-title' },
      title,
      h('p', { class: 'lead', text: t('home.createLead') }),
      h('label', { for: 'create-name' }, h('span', { text: t('home.yourName') }), nameInput('create-name')),
      gamePicker('createGame', 'create', (choice) => { title.textContent = createTitle(choice); }),
      opts.el,
      h('label', { for: 'create-listed', class: 'check' },
        h('input', { type: 'checkbox', id: 'create-listed', checked: form.listed,
          onchange: (/** @type {Event} */ e) => { form.listed = /** @type {HTMLInputElement} */ (e.target).checked; } }),
        h('span', { text: t('home.listRoom') })),
      openTables.openChoice(), // "Open table: anyone on this server may join"
      error.create ? h('p', { class: 'error', role: 'alert', text: error.create }) : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy, id: 'create-room' }, t('home.createButton')));

    const codeInput = h('input', { id: 'join-code', name: 'code', type: 'text', maxlength: '12', dataset: { focus: 'join-code' },
      autocapitalize: 'characters', autocomplete: 'off', spellcheck: 'false', value: form.code,
      placeholder: 'KXWPRTM', class: 'code-input',
      oninput: (/** @type {Event} */ e) => { form.code = /** @type {HTMLInputElement} */ (e.target).value.toUpperCase(); } });
    const joinForm = h('form', { class: 'panel join', onsubmit: join, 'aria-labelledby': 'join-title' },
      h('h2', { id: 'join-title', text: t('home.joinTitle') }),
      h('label', { for: 'join-code' }, h('span', { text: t('home.roomCode') }), codeInput),
      h('label', { for: 'join-name' }, h('span', { text: t('home.yourName') }), nameInput('join-name')),
      error.join ? h('p', { class: 'error', role: 'alert', text: error.join }) : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy, id: 'join-room' }, t('home.joinButton')));

    const botCount = h('select', { id: 'practice-bots', name: 'bots',
      onchange: (/** @type {Event} */ e) => { form.practice.bots = Number(/** @type {HTMLSelectElement} */ (e.target).value); } },
    [1, 2, 3, 4, 5, 6, 7].map((n) => h('option', { value: n, selected: n === form.practice.bots }, String(n))));
    const botLevelSelect = h('select', { id: 'practice-level', name: 'level',
      onchange: (/** @type {Event} */ e) => { form.practice.level = /** @type {HTMLSelectElement} */ (e.target).value; } },
    BOT_LEVELS.map((lv) => h('option', { value: lv, selected: lv === form.practice.level }, levelChoiceLabel(lv))));
    const practiceForm = h('form', { class: 'panel practice', onsubmit: practice, 'aria-labelledby': 'practice-title' },
      h('h2', { id: 'practice-title', text: t('bots.practiceTitle') }),
      h('p', { class: 'lead', text: t('bots.practiceLead') }),
      h('label', { for: 'practice-name' }, h('span', { text: t('home.yourName') }), nameInput('practice-name')),
      gamePicker('practiceGame', 'practice'),
      h('div', { class: 'option-fields' },
        h('label', { for: botCount.id }, h('span', { text: t('bots.howMany') }), botCount),
        h('label', { for: botLevelSelect.id }, h('span', { text: t('bots.level') }), botLevelSelect)),
      error.practice ? h('p', { class: 'error', role: 'alert', text: error.practice }) : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy, id: 'practice-start' }, t('bots.practiceButton')),
      h('button', { type: 'submit', class: 'secondary', disabled: busy, id: 'guide-practice' }, t('guide.practice')),
      h('a', { href: '/daily', class: 'button secondary', id: 'daily-link', // the daily race (daily/daily.js)
        onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); navigate('/daily'); } }, t('daily.homeLink')));

    const gripPanel = h('section', { class: 'panel grip-promo', 'aria-labelledby': 'grip-title' },
      h('h2', { id: 'grip-title', text: t('home.gripTitle') }),
      h('p', { class: 'lead', text: t('home.gripLead') }),
      h('div', { class: 'promo-cards', 'aria-hidden': 'true' }, cardEl('2S', { mini: true }), cardEl('5S', { mini: true }),
        cardEl('8S', { mini: true }), cardEl('JS', { mini: true })),
      h('a', { href: '/grip', class: 'button primary', id: 'play-grip',
        onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); navigate('/grip'); } }, t('home.gripButton')));

    const rules = h('section', { class: 'panel about', 'aria-labelledby': 'about-title' },
      h('h2', { id: 'about-title', text: t('home.aboutTitle') }),
      h('p', { text: t('home.aboutDemon') }),
      h('p', { text: t('home.aboutNerts') }),
      h('p', { text: t('home.aboutGrip') }),
      h('button', { type: 'button', class: 'secondary', onclick: () => showRules() }, t('home.readRules')));

    const recent = history && history.length ? h('section', { class: 'panel recent', 'aria-labelledby': 'recent-title' },
      h('h2', { id: 'recent-title', text: t('home.recentTitle') }),
      h('ol', { class: 'recent-list' }, history.map(recentItem))) : null;

    replaceChildren(container, h('div', { class: 'home' },
      h('section', { class: 'hero' },
        h('div', { class: 'hero-cards', 'aria-hidden': 'true' }, backEl(0, { mini: true }), backEl(1, { mini: true }),
          backEl(2, { mini: true }), cardEl('AH', { mini: true })),
        h('h1', { text: t('app.title') }),
        h('p', { class: 'tagline', text: t('home.tagline') })),
      h('div', { class: 'home-grid' }, openTables.el, createForm, joinForm, practiceForm, gripPanel, rules, recent)));
    focus.restore();
  }

  render();
  return {
    rerender: () => { openTables.rerender(); render(); },
    title: () => t('app.title'),
    /** @returns {import('./demon/room.js').KeyHelp} */
    keys: () => [],
    destroy() { destroyed = true; openTables.destroy(); skipToPractice.remove(); },
  };
}

// A finished match of GET /api/history: {code, finished_at (seconds), players [{id, name,
// total, bot}], rounds [...], winners [player ids]}.
/** @param {import('./recent-games.js').RecentGame} game */
function recentItem(game) {
  const when = recentWhen(game.finished_at, t('lang.code'));
  const winners = new Set(game.winners);
  // each player whole on one line (name, level, points, star): a row once broke between
  // a name and its bot badge, and "1 / round" over two lines
  const names = game.players.map((p) => {
    const won = winners.has(p.id);
    return h('span', { class: won ? 'recent-player winner' : 'recent-player' },
      nameOf(p), botBadge(p), ` ${p.total}`, won ? ' ★' : '');
  });
  return h('li', null,
    h('div', { class: 'recent-head' },
      h('span', { class: 'recent-kind', text: gameName(gameOfMatch(game), t) }),
      when ? h('time', { datetime: when.iso, text: when.text }) : null,
      h('span', { class: 'recent-rounds', text: t('home.roundsCount', { n: game.rounds.length }) }),
      // its rounds can be watched again by its players: this browser kept a seat there
      getRoomCreds(game.code) ? h('a', { class: 'recent-replay', href: `/replay/${game.code}/last`,
        text: t('replay.watchAgain') }) : null),
    h('span', { class: 'recent-players' }, names));
}
