// A certified deal's solution (GET /api/grip/{id}/solution: {initial, steps: [{action,
// state}]}), stepped through by hand or played at one step every 600 ms. `current()` is
// {initial, steps, i, timer} while a solution is shown (i: the steps done), else null;
// `onChange` redraws the page.

const STEP_MS = 600;

/** @typedef {import('./grip-model.js').SolutionReplay} SolutionReplay */

/**
 * @param {() => void} onChange
 */
export function createReplay(onChange) {
  /** @type {SolutionReplay | null} */
  let replay = null;

  function pause() {
    if (replay && replay.timer) { clearInterval(replay.timer); replay.timer = null; }
  }

  /** @param {number} i */
  function stepTo(i) {
    if (!replay) return;
    replay.i = Math.max(0, Math.min(replay.steps.length, i));
    if (replay.i === replay.steps.length) pause();
    onChange();
  }

  return {
    current: () => replay,
    /** @param {{ initial: SolutionReplay['initial'], steps: SolutionReplay['steps'] }} solution */
    start(solution) {
      pause();
      replay = { initial: solution.initial, steps: solution.steps, i: 0, timer: null };
    },
    // (without a solution on show there is nothing to step: stepTo does nothing then)
    prev() { pause(); if (replay) stepTo(replay.i - 1); },
    next() { pause(); if (replay) stepTo(replay.i + 1); },
    // Play from here (from the start once at the end), or pause.
    toggle() {
      if (!replay) return;
      if (replay.timer) { pause(); onChange(); return; }
      if (replay.i >= replay.steps.length) replay.i = 0;
      // the same solution until the timer is cleared (start and stop pause first)
      const shown = replay;
      shown.timer = setInterval(() => stepTo(shown.i + 1), STEP_MS);
      onChange();
    },
    stop() { pause(); replay = null; },
    pause,
  };
}
