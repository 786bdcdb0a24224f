// node --test: the settings model (static/common/settings.js): defaults, what a stored value
// may be, and what the settings put on <html>.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SETTING_NAMES, resolve, htmlHooks, applyTo, isValid } from '../../static/common/settings.js';

test('with nothing stored: sound off, two colours, usual letters, right hand, green felt, animations on', () => {
  assert.deepEqual(resolve({}, { reducedMotion: false }), {
    sound: false, fourColour: false, letters: 'usual', animations: true, hand: 'right', theme: 'felt',
  });
  assert.deepEqual(SETTING_NAMES.sort(), ['animations', 'fourColour', 'hand', 'letters', 'sound', 'theme']);
});

test('animations start off when the system asks for reduced motion, and a choice overrides it', () => {
  assert.equal(resolve({}, { reducedMotion: true }).animations, false);
  assert.equal(resolve({}, {}).animations, true);
  assert.equal(resolve({ animations: true }, { reducedMotion: true }).animations, true);
  assert.equal(resolve({ animations: false }, { reducedMotion: false }).animations, false);
});

test('stored values are kept; junk falls back to the default, setting by setting', () => {
  const stored = { sound: true, fourColour: 'yes', letters: 'intl', hand: 'left', theme: 'purple', animations: 0 };
  assert.deepEqual(resolve(stored, {}), {
    sound: true, fourColour: false, letters: 'intl', animations: true, hand: 'left', theme: 'felt',
  });
  assert.deepEqual(resolve(null, {}), resolve({}, {}));
  assert.equal(isValid('theme', 'light'), true);
  assert.equal(isValid('theme', 'toString'), false);
  assert.equal(isValid('constructor', undefined), false);
});

test('what goes on <html>: left-handed, no-motion and four-colour classes, the theme', () => {
  const s = resolve({ hand: 'left', animations: false, theme: 'dark', fourColour: true }, {});
  assert.deepEqual(htmlHooks(s), {
    classes: { 'left-handed': true, 'no-motion': true, 'four-colour': true },
    data: { theme: 'dark' },
  });
  assert.deepEqual(htmlHooks(resolve({}, {})).classes, { 'left-handed': false, 'no-motion': false, 'four-colour': false });
});

test('applyTo writes the hooks and takes them off again', () => {
  const classes = new Set(['other']);
  const root = { classList: { toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)) }, dataset: {} };
  applyTo(root, resolve({ hand: 'left', theme: 'light', animations: false }, {}));
  assert.deepEqual([...classes].sort(), ['left-handed', 'no-motion', 'other']);
  assert.equal(root.dataset.theme, 'light');
  applyTo(root, resolve({}, {}));
  assert.deepEqual([...classes], ['other']);
  assert.equal(root.dataset.theme, 'felt');
});
