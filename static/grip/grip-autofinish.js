// "Finish" for a Devil's Grip deal that is certainly won, pure of the page: the runner
// that looks for a winning line right after every move, in slices between frames (the
// proof, grip-finish.js, is a generator), and the player that plays a line one move at a
// time so the player sees each one. The timers and the clock are passed in;
// page/grip-session.js plays the moves and the page draws.
//
// Why no pause before looking and no "near the end only": the offer must be there as
// soon as the win is certain, also for a player who moves at once (following hints); the
// search is cheap enough in slices (a few thousand positions, tens of ms in all) and is
// dropped the moment the player moves on.

/** @typedef {import('./grip-rules.js').Action} Action */

export const FINISH_SLICE_MS = 8; // the search runs at most this long between two frames
export const FINISH_STEP_MS = 220; // auto-finish: one move shown every this long

/**
 * @template Timer
 * @param {object} how
 * @param {(fn: () => void, ms: number) => Timer} how.setTimer
 * @param {(timer: Timer) => void} how.clearTimer
 * @param {() => number} how.now a monotonic clock in ms
 * @param {number} [sliceMs]
 */
export function createProofRunner({ setTimer, clearTimer, now }, sliceMs = FINISH_SLICE_MS) {
  /** @type {Timer | null} */
  let timer = null; // the next slice's, while a search runs

  return {
    /** Whether a search is running. */
    running: () => timer !== null,
    /**
     * Runs `search` (a generator that yields between slices and returns a line or null)
     * from the next tick, slice after slice, each tick for at most sliceMs, and calls
     * `done` with its answer. Drops a search already running.
     * @param {Generator<void, Action[] | null, void>} search
     * @param {(line: Action[] | null) => void} done
     */
    start(search, done) {
      this.stop();
      const slice = () => {
        timer = null;
        const until = now() + sliceMs;
        for (;;) {
          const step = search.next();
          if (step.done) { done(step.value); return; }
          if (now() >= until) break;
        }
        timer = setTimer(slice, 0);
      };
      timer = setTimer(slice, 0);
    },
    /** Drops the search running, if any: its answer is never given. */
    stop() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}

/**
 * @template Timer
 * @param {object} timers
 * @param {(fn: () => void, ms: number) => Timer} timers.setTimer
 * @param {(timer: Timer) => void} timers.clearTimer
 * @param {number} [stepMs]
 */
export function createFinishPlayer({ setTimer, clearTimer }, stepMs = FINISH_STEP_MS) {
  /** @type {Timer | null} */
  let timer = null; // the next move's, while a line plays

  return {
    /** Whether a line is being played. */
    playing: () => timer !== null,
    /**
     * Plays `line` from the next tick, one move every stepMs. `play` plays one move and
     * says whether it was legal (an illegal one stops the line); `alive` says whether the
     * page is still there; `changed` is called after each step (and when the line ends).
     * While `play` runs, `playing()` is false: the move is the page's own.
     * @param {Action[]} line
     * @param {{play: (action: Action) => boolean, alive: () => boolean, changed: () => void}} how
     */
    start(line, { play, alive, changed }) {
      let i = 0;
      const step = () => {
        timer = null;
        if (!alive() || i >= line.length) { changed(); return; }
        const ok = play(line[i]);
        i += 1;
        if (!ok) { changed(); return; }
        timer = setTimer(step, stepMs);
        changed();
      };
      timer = setTimer(step, 0);
    },
    /** Stops the line being played, if any. */
    stop() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}
