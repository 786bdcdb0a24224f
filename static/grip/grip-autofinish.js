// "Finish" for a Devil's Grip deal that is certainly won, pure of the page: when to look
// for a winning line (near the end only, where the proof, grip-finish.js, is quick and
// likely), and the player that plays a line one move at a time so the player sees each
// one. The timers are passed in; page/grip-session.js plays the moves and the page draws.

/** @typedef {import('./grip-rules.js').Action} Action */

export const FINISH_CHECK_MS = 350; // the proof runs once the player pauses this long
export const FINISH_MAX_SCORE = 24; // and only near the end, where it is quick and likely
export const FINISH_STEP_MS = 220; // auto-finish: one move shown every this long

/**
 * Whether to look for a winning line from `state`: a deal not ended, with at most
 * FINISH_MAX_SCORE cards left outside the grid.
 * @param {{ended: boolean, stock: readonly unknown[], talon: readonly unknown[]} | null | undefined} state
 * @returns {boolean}
 */
export function worthProving(state) {
  return Boolean(state && !state.ended && state.stock.length + state.talon.length <= FINISH_MAX_SCORE);
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
