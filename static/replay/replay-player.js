// The clock and the keys of both replay viewers (a Demon round, replay.js; a Devil's Grip
// game, grip-viewer.js): which position is shown, playing from it at a speed, stepping,
// seeking, and ← → Home End Space. The viewer draws; this only says what and when.
//
//   count              how many positions there are (0 .. count - 1)
//   waitMs(i, speed)   how long position i stays before i + 1 while playing (null: the end)
//   show(i, animate)   draw position i (animate: it follows i - 1 by one step forward)
//   onPlaying(bool)    playing started or stopped (the play button's words)
//   onStep(i)          a step by hand landed on i (what a screen reader is told)

import { stepTo } from './replay-steps.js';

/**
 * @typedef {{
 *   at: () => number,
 *   last: number,
 *   speed: () => number,
 *   playing: () => boolean,
 *   toggle: () => void,
 *   step: (delta: number) => void,
 *   seek: (i: number) => void,
 *   setSpeed: (value: number) => void,
 *   destroy: () => void,
 * }} ReplayPlayer
 */

/**
 * @param {{
 *   count: number,
 *   waitMs: (i: number, speed: number) => number | null,
 *   show: (i: number, animate: boolean) => void,
 *   onPlaying?: (playing: boolean) => void,
 *   onStep?: (i: number) => void,
 * }} options
 * @returns {ReplayPlayer}
 */
export function createPlayer({ count, waitMs, show, onPlaying = () => {}, onStep = () => {} }) {
  const last = count - 1;
  let at = 0;
  let speed = 1;
  /** @type {ReturnType<typeof setTimeout> | -1 | null} -1: playing, before the first wait is set */
  let timer = null;

  /**
   * @param {number} i
   * @param {boolean} animate
   */
  function go(i, animate) {
    at = i;
    show(i, animate);
  }

  function pause() {
    clearTimeout(timer ?? undefined);
    timer = null;
    onPlaying(false);
  }

  function play() {
    if (at === last) go(0, false);
    clearTimeout(timer ?? undefined);
    const next = () => {
      const wait = waitMs(at, speed);
      if (wait === null) { pause(); return; }
      timer = setTimeout(() => {
        go(at + 1, true);
        if (at === last) pause(); else next();
      }, wait);
    };
    timer = -1; // playing, before the first wait is set
    next();
    onPlaying(true);
  }

  /** @param {number} delta */
  function step(delta) {
    pause();
    go(stepTo(at, delta, count), delta === 1);
    onStep(at);
  }

  /** @param {number} i */
  function seek(i) {
    pause();
    go(Math.max(0, Math.min(last, i)), false);
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector('.modal-shade')) return;
    const target = /** @type {Element | null} */ (e.target); // a key goes to an element (or the document: no tag)
    const tag = target && target.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(/** @type {string} */ (tag)) && e.key !== 'Home' && e.key !== 'End') return;
    if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'Home') seek(0);
    else if (e.key === 'End') seek(last);
    else if (e.key === ' ') { if (timer) pause(); else play(); }
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  return {
    at: () => at,
    last,
    speed: () => speed,
    playing: () => timer !== null,
    toggle: () => (timer ? pause() : play()),
    step,
    seek,
    /** @param {number} value */
    setSpeed(value) {
      speed = value;
      if (timer) { pause(); play(); }
    },
    destroy() {
      pause();
      document.removeEventListener('keydown', onKey);
    },
  };
}
