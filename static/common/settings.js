// The player's settings: what there is, the defaults, and what each one puts on <html>.
// Pure at its core (`resolve`, `htmlHooks`, `applyTo` take plain data and a root to
// write on, and are tested with node in tests/js/settings.test.mjs); `loadSettings` and
// `saveSetting` keep them in the browser through storage.js, in the same preferences
// object as before (so a sound or four-colour choice made before this panel existed is
// kept). What a setting does beyond <html> (sound.js, cards.js, the texts' card letters)
// is wired in settings-panel.js.

import { getPref, setPref } from './storage.js';
import { LETTER_CHOICES } from '../cards/card-letters.js';

/**
 * The settings in effect, one value each (`resolve`).
 * @typedef {{ sound: boolean, fourColour: boolean, letters: string, animations: boolean, hand: string, theme: string }} Settings
 */
/** @typedef {keyof Settings} SettingName */
/** What the defaults depend on. @typedef {{ reducedMotion?: boolean }} SettingsEnv */

export const THEMES = ['felt', 'dark', 'light'];
export const HANDS = ['right', 'left'];

// name -> {values, fallback(env)}; env = {reducedMotion: the system asks for less motion}.
/** @type {Readonly<Record<SettingName, { values: readonly unknown[], fallback: (env?: SettingsEnv) => unknown }>>} */
export const SETTINGS = Object.freeze({
  sound: { values: [false, true], fallback: () => false },
  fourColour: { values: [false, true], fallback: () => false },
  letters: { values: LETTER_CHOICES, fallback: () => 'usual' },
  // animations are off by default when the system says prefers-reduced-motion
  animations: { values: [true, false], fallback: (env) => !(env && env.reducedMotion) },
  hand: { values: HANDS, fallback: () => 'right' },
  theme: { values: THEMES, fallback: () => 'felt' },
});

export const SETTING_NAMES = /** @type {SettingName[]} */ (Object.keys(SETTINGS));

/**
 * @param {string} name
 * @param {unknown} value
 * @returns {boolean}
 */
export function isValid(name, value) {
  return Object.prototype.hasOwnProperty.call(SETTINGS, name) && SETTINGS[/** @type {SettingName} */ (name)].values.includes(value);
}

// What is in effect: each stored value that is valid, else the default for this
// environment. A setting never chosen keeps following its default (the system's motion
// preference can change while the page is open).
/**
 * @param {Partial<Record<string, unknown>> | null | undefined} stored
 * @param {SettingsEnv} [env]
 * @returns {Settings}
 */
export function resolve(stored, env = {}) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const name of SETTING_NAMES) {
    const value = stored ? stored[name] : undefined;
    out[name] = isValid(name, value) ? value : SETTINGS[name].fallback(env);
  }
  // every name given a valid value or its default
  return /** @type {Settings} */ (out);
}

// What the settings put on <html>: classes and data attributes that the stylesheets
// (settings.css) and animationsOff() in dom.js read.
/**
 * @param {Partial<Settings>} settings
 * @returns {{ classes: Record<string, boolean>, data: { theme: string | undefined } }}
 */
export function htmlHooks(settings) {
  return {
    classes: {
      'left-handed': settings.hand === 'left',
      'no-motion': settings.animations === false,
      'four-colour': settings.fourColour === true,
    },
    data: { theme: settings.theme },
  };
}

// Writes the hooks on `root` (document.documentElement, or anything with classList
// and dataset).
/**
 * @param {{ classList: { toggle: (name: string, on: boolean) => unknown }, dataset: Record<string, string | undefined> }} root
 * @param {Partial<Settings>} settings
 */
export function applyTo(root, settings) {
  const { classes, data } = htmlHooks(settings);
  for (const [name, on] of Object.entries(classes)) root.classList.toggle(name, on);
  Object.assign(root.dataset, data);
}

// ---- kept in the browser ------------------------------------------------------------

/** @returns {Partial<Settings>} */
export function storedSettings() {
  /** @type {Record<string, unknown>} */
  const stored = {};
  for (const name of SETTING_NAMES) {
    const value = getPref(name, undefined);
    if (value !== undefined) stored[name] = value;
  }
  return stored;
}

/**
 * @param {string} name
 * @param {unknown} value
 * @returns {boolean} false (nothing saved) for an unknown name or a value it cannot take
 */
export function saveSetting(name, value) {
  if (!isValid(name, value)) return false;
  setPref(/** @type {SettingName} */ (name), /** @type {Settings[SettingName]} */ (value));
  return true;
}
