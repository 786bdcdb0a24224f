// The game choice (Demon or Nerts) and Nerts' house rules as form fields, and the same
// choice as a list the players who do not choose it read. The home page ("Start a room",
// "Play against bots") and the host's lobby show the fields; the lobby shows the list to
// everyone else. Each house rule has its one-line explanation beside it, tied to its
// control with aria-describedby so a screen reader reads it with the control.
// The values and their words are game-options.js's.

import { h, setHidden } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { GAMES, choiceOf, gameName } from './game-options.js';

/** @typedef {import('./game-options.js').GameChoice} GameChoice */
/** @typedef {import('./game-options.js').Game} Game */

// A house rule's control: a label, the control, and its explanation below.
/**
 * @param {HTMLElement} control with an id
 * @param {string} labelKey
 * @param {string} hintKey
 * @param {boolean} check a checkbox: the label follows the box
 */
function ruleRow(control, labelKey, hintKey, check) {
  const hintId = `${control.id}-hint`;
  control.setAttribute('aria-describedby', hintId);
  const label = check
    ? h('label', { for: control.id, class: 'check' }, control, h('span', { text: t(labelKey) }))
    : h('label', { for: control.id }, h('span', { text: t(labelKey) }), control);
  return h('div', { class: 'house-rule' }, label, h('p', { class: 'note house-hint', id: hintId, text: t(hintKey) }));
}

/**
 * @param {GameChoice} choice what the fields show first
 * @param {(choice: GameChoice) => void} onChange called with the whole choice on any change
 * @param {{ idPrefix: string, disclose?: boolean }} how `disclose`: the house rules behind
 *   a "House rules" disclosure (the home page keeps its first screen short)
 * @returns {{ el: HTMLElement, read: () => GameChoice }}
 */
export function gameFields(choice, onChange, { idPrefix, disclose = false }) {
  const radios = GAMES.map((game) => /** @type {HTMLInputElement} */ (h('input', { type: 'radio',
    name: `${idPrefix}-game`, id: `${idPrefix}-game-${game}`, value: game, checked: game === choice.game,
    // named by the game alone, its line read as the description (the label holds both)
    'aria-labelledby': `${idPrefix}-game-${game}-name`, 'aria-describedby': `${idPrefix}-game-${game}-hint`,
    onchange: changed })));
  const draw = h('select', { id: `${idPrefix}-draw`, name: 'draw', onchange: changed },
    [3, 1].map((n) => h('option', { value: n, selected: n === choice.house_rules.draw, text: t(`house.draw${n}`) })));
  const racing = h('input', { type: 'checkbox', id: `${idPrefix}-racing-spaces`, name: 'racing_spaces',
    checked: choice.house_rules.racing_spaces, onchange: changed });
  const stall = h('input', { type: 'checkbox', id: `${idPrefix}-stall`, name: 'stall',
    checked: choice.house_rules.stall, onchange: changed });

  const rules = [ruleRow(draw, 'house.draw', 'house.drawHint', false),
    ruleRow(racing, 'house.racingSpaces', 'house.racingSpacesHint', true),
    ruleRow(stall, 'house.stall', 'house.stallHint', true)];
  const house = disclose
    ? h('details', { class: 'house-rules', id: `${idPrefix}-house` },
      h('summary', { text: t('house.title') }), ...rules)
    : h('fieldset', { class: 'house-rules', id: `${idPrefix}-house` },
      h('legend', { text: t('house.title') }), ...rules);
  setHidden(house, choice.game !== 'nerts');

  const el = h('div', { class: 'game-fields' },
    h('fieldset', { class: 'game-choice' },
      h('legend', { text: t('game.label') }),
      radios.map((radio) => h('label', { for: radio.id, class: 'game-option' }, radio,
        h('span', { class: 'game-option-name', id: `${radio.id}-name`, text: gameName(/** @type {Game} */ (radio.value), t) }),
        h('span', { class: 'note game-hint', id: `${radio.id}-hint`, text: t(`game.${radio.value}Hint`) })))),
    house);

  /** @returns {GameChoice} */
  function read() {
    const picked = radios.find((r) => r.checked);
    return choiceOf({ game: picked ? picked.value : 'demon',
      house_rules: { draw: Number(draw.value), racing_spaces: racing.checked, stall: stall.checked } });
  }

  function changed() {
    const now = read();
    setHidden(house, now.game !== 'nerts');
    onChange(now);
  }

  return { el, read };
}

// The choice as words, for the players who do not make it (the lobby's non-hosts and
// spectators): [term, value, explanation] rows for a <dl>; the house rules only for Nerts.
/**
 * @param {GameChoice} choice
 * @returns {[string, string, string | null][]}
 */
export function choiceRows(choice) {
  /** @type {[string, string, string | null][]} */
  const rows = [[t('game.label'), gameName(choice.game, t), null]];
  if (choice.game !== 'nerts') return rows;
  const onOff = (/** @type {boolean} */ on) => t(on ? 'house.on' : 'house.off');
  const rules = choice.house_rules;
  rows.push([t('house.draw'), t(`house.draw${rules.draw}`), t('house.drawHint')],
    [t('house.racingSpaces'), onOff(rules.racing_spaces), t('house.racingSpacesHint')],
    [t('house.stall'), onOff(rules.stall), t('house.stallHint')]);
  return rows;
}
