// The settings dialog, and the one place the settings are put into effect: on <html>
// (settings.css reads the classes), in sound.js, in cards.js (four colours, the card
// letters) and in i18n.js (the {A} {K} {Q} {J} of the texts). The model — what there
// is, the defaults, what goes on <html> — is settings.js.

import { h, modal } from './dom.js';
import { t, getLang, setTextConstants } from './i18n.js';
import { resolve, applyTo, storedSettings, saveSetting, THEMES } from './settings.js';
import { lettersFor, hasLocalLetters, letterVars, rankLetter } from '../cards/card-letters.js';
import { setFourColour, setLetters } from '../cards/cards.js';
import { setSound, play } from './sound.js';
import { getAnnounce, setAnnounce } from './storage.js';

const motionQuery = typeof window !== 'undefined' && window.matchMedia
  ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;

// The browser's bar colour follows the table.
/** @type {Record<string, string>} */
const THEME_COLOURS = { felt: '#0f5132', dark: '#15181b', light: '#2f5d43' };

/** @typedef {import('./settings.js').Settings} Settings */

/** @type {Settings | null} */
let current = null;
/** @type {() => void} */
let onChanged = () => {};

/** @returns {Settings} */
export function currentSettings() {
  if (!current) return applySettings();
  return current;
}

// Reads the settings (stored, else the defaults for this system) and puts them into
// effect. Called at start, after a change, and when the language changes (the card
// letters depend on it).
/** @returns {Settings} */
export function applySettings() {
  const settings = resolve(storedSettings(), { reducedMotion: Boolean(motionQuery && motionQuery.matches) });
  current = settings;
  const root = document.documentElement;
  applyTo(root, settings);
  setSound(settings.sound, { wake: false });
  setFourColour(settings.fourColour);
  const letters = lettersFor(getLang(), settings.letters);
  setLetters(letters);
  setTextConstants(letterVars(letters));
  // the K drawn on an empty pile of your layout (a11y.css); the card pictures need no
  // clearing, cards.js keeps them per colours and letters
  root.style.setProperty('--king-letter', JSON.stringify(letters.ranks.K));
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', THEME_COLOURS[settings.theme] || THEME_COLOURS.felt);
  return settings;
}

// The settings that change what is drawn, not only what <html> and the stylesheets say.
const REDRAWN = ['fourColour', 'letters'];

// `fn` redraws the page (app.js: the header and the page on show) after a change of the
// card faces; the other settings act through <html> alone, so a race in progress is
// not redrawn when the table turns dark or the stock moves to the right.
/** @param {(() => void) | null} [fn] */
export function initSettings(fn) {
  onChanged = fn || (() => {});
  applySettings();
  // a setting left at its default follows the system's motion preference as it changes
  if (motionQuery && motionQuery.addEventListener) {
    motionQuery.addEventListener('change', () => { applySettings(); });
  }
}

/**
 * @param {import('./settings.js').SettingName} name
 * @param {unknown} value
 */
function change(name, value) {
  if (!saveSetting(name, value)) return;
  applySettings();
  if (name === 'sound' && value) { setSound(true, { wake: true }); play('select'); }
  if (REDRAWN.includes(name)) onChanged();
}

/**
 * @param {string} id
 * @param {'fourColour' | 'animations' | 'sound'} name
 * @param {string} label
 * @param {string | null} note
 */
function check(id, name, label, note) {
  const noteId = note ? `${id}-note` : null;
  return h('div', { class: 'setting' },
    h('label', { class: 'check', for: id },
      h('input', { type: 'checkbox', id, checked: currentSettings()[name], 'aria-describedby': noteId,
        onchange: (e) => change(name, e.currentTarget.checked) }),
      h('span', { text: label })),
    note ? h('p', { class: 'note', id: noteId, text: note }) : null);
}

/** @param {Parameters<typeof rankLetter>[1]} letters */
function lettersText(letters) {
  return ['A', 'K', 'Q', 'J'].map((r) => rankLetter(r, letters)).join(' ');
}

function lettersField() {
  const lang = getLang();
  const options = [['usual', t('settings.lettersUsual', { letters: lettersText(lettersFor(lang, 'usual')) })]];
  if (hasLocalLetters(lang)) options.push(['local', t('settings.lettersLocal', { letters: lettersText(lettersFor(lang, 'local')) })]);
  options.push(['intl', t('settings.lettersIntl', { letters: lettersText(lettersFor(lang, 'intl')) })]);
  const chosen = currentSettings().letters;
  const value = options.some(([v]) => v === chosen) ? chosen : 'usual';
  return h('div', { class: 'setting' },
    h('label', { for: 'set-letters' }, h('span', { text: t('settings.letters') })),
    h('select', { id: 'set-letters', 'aria-describedby': 'set-letters-note',
      onchange: (e) => change('letters', e.currentTarget.value) },
    options.map(([v, text]) => h('option', { value: v, selected: v === value, text }))),
    h('p', { class: 'note', id: 'set-letters-note', text: t('settings.lettersNote') }));
}

function themeField() {
  return h('fieldset', { class: 'setting theme-choice' },
    h('legend', { text: t('settings.theme') }),
    THEMES.map((theme) => h('label', { class: `check theme-${theme}`, for: `set-theme-${theme}` },
      h('input', { type: 'radio', name: 'set-theme', id: `set-theme-${theme}`, value: theme,
        checked: currentSettings().theme === theme, onchange: () => change('theme', theme) }),
      h('span', { class: 'theme-swatch', 'aria-hidden': 'true' }),
      h('span', { text: t(`settings.theme.${theme}`) }))));
}

export function showSettings() {
  const current = currentSettings();
  const body = h('div', { class: 'settings-panel' },
    h('section', { 'aria-labelledby': 'set-cards-title' },
      h('h3', { id: 'set-cards-title', text: t('settings.cards') }),
      check('set-four', 'fourColour', t('settings.fourColour'), t('settings.fourColourNote')),
      lettersField()),
    h('section', { 'aria-labelledby': 'set-table-title' },
      h('h3', { id: 'set-table-title', text: t('settings.table') }),
      themeField(),
      h('div', { class: 'setting' },
        h('label', { class: 'check', for: 'set-hand' },
          h('input', { type: 'checkbox', id: 'set-hand', checked: current.hand === 'left',
            'aria-describedby': 'set-hand-note', onchange: (e) => change('hand', e.currentTarget.checked ? 'left' : 'right') }),
          h('span', { text: t('settings.leftHanded') })),
        h('p', { class: 'note', id: 'set-hand-note', text: t('settings.leftHandedNote') })),
      check('set-motion', 'animations', t('settings.animations'), t('settings.animationsNote'))),
    h('section', { 'aria-labelledby': 'set-sound-title' },
      h('h3', { id: 'set-sound-title', text: t('settings.soundTitle') }),
      check('set-sound', 'sound', t('settings.sound'), null)),
    // also in the keyboard help at a Demon table, next to the keys (room.js reads it live)
    h('section', { 'aria-labelledby': 'set-say-title' },
      h('h3', { id: 'set-say-title', text: t('say.title') }),
      h('div', { class: 'setting' },
        h('label', { class: 'check', for: 'set-announce' },
          h('input', { type: 'checkbox', id: 'set-announce', checked: getAnnounce() === 'mine',
            onchange: (e) => setAnnounce(e.currentTarget.checked ? 'mine' : 'all') }),
          h('span', { text: t('say.onlyMine') })))),
    h('p', { class: 'note', text: t('settings.kept') }));
  return modal(t('settings.title'), body);
}
