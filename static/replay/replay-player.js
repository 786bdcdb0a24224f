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

export function createPlayer({ count, waitMs, show, onPlaying = () => {}, onStep = () => {} }) {
  const last = count - 1;
  let at = 0;
  let speed = 1;
  let timer = null;

  function go(i, animate) {
    at = i;
    show(i, animate);
  }

  function pause() {
    clearTimeout(timer);
    timer = null;
    onPlaying(false);
  }

  function play() {
    if (at === last) go(0, false);
    clearTimeout(timer);
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

  function step(delta) {
    pause();
    go(stepTo(at, delta, count), delta === 1);
    onStep(at);
  }

  function seek(i) {
    pause();
    go(Math.max(0, Math.min(last, i)), false);
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector('.modal-shade')) return;
    const tag = e.target && e.target.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(tag) && e.key !== 'Home' && e.key !== 'End') return;
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
