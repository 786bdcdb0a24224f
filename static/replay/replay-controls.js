// The controls both replay viewers share (a Demon round, a Devil's Grip game): play,
// steps, the scrubber, the clock and the speed. Made here once so the two pages keep the
// same ids, roles and keys; `player` is read when a control is used, since the player is
// made after its controls.

import { h } from '../common/dom.js';

/**
 * @param {number} last the last position (0 .. last)
 * @param {() => import('./replay-player.js').ReplayPlayer} player
 */
export function createControls(last, player) {
  return {
    playBtn: h('button', { type: 'button', class: 'primary', id: 'replay-play', onclick: () => player().toggle() }),
    backBtn: h('button', { type: 'button', class: 'secondary', id: 'replay-back', onclick: () => player().step(-1) }),
    fwdBtn: h('button', { type: 'button', class: 'secondary', id: 'replay-forward', onclick: () => player().step(1) }),
    scrub: h('input', { type: 'range', id: 'replay-scrub', min: '0', max: String(last), step: '1', value: '0',
      oninput: (e) => player().seek(Number(e.currentTarget.value)) }),
    scrubLabel: h('label', { for: 'replay-scrub', class: 'sr-only' }),
    clock: h('span', { class: 'replay-clock', 'aria-hidden': 'true' }),
    speedSel: h('select', { id: 'replay-speed', onchange: (e) => player().setSpeed(Number(e.currentTarget.value)) }),
    speedLabel: h('label', { for: 'replay-speed' }),
  };
}
