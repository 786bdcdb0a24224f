// Cards flying to a foundation pile, for both racing tables (Demon's and Nerts'): your
// own from where your card was, another seat's from its small panel.
//
// The plays of a frame fly together: every position read first (one layout), then every
// animation started (transform only, which needs no layout again). The room draws events
// once a frame and tells them all after the drawing (room.js), so the flights start in
// the frame that shows the plays, not in a frame of their own. Other seats' cards fly
// one at a time: while one is in the air the next lands at once. At eight seats plays
// come faster than a flight lasts, and each flight costs the page a new compositor layer
// twice (bench/page.py: about a quarter of its time per play); the flight says "someone
// played there", and one in the air says it as well as five. And not one after the other
// either: each flight's start and end are frames of their own for the browser (a new
// layer, then the card painted back in place), so another seat's card flies at most once
// in OTHERS_EVERY_MS; the plays between land at once. A page that is behind (a task of
// over 50 ms in the last BEHIND_MS: a slow phone, a laptop busy with something else)
// lets them all land at once: your own still fly.

import { flyFrom } from './input.js';

/** @typedef {import('./input.js').Box} Box */

/**
 * One card to fly: to foundation `pile`, from `from` (your own, read before the move was
 * applied) or from another seat's panel (`seat`, and the `src` its panel marks with
 * data-src), read here once a frame.
 * @typedef {{pile: number, from: Box | null | undefined, seat: number | undefined, src: string | number | undefined,
 *   mine: boolean, ms: number}} Flight
 */

const OTHERS_EVERY_MS = 1000;
const BEHIND_MS = 3000;

/**
 * @param {{foundations: HTMLElement, opponents: HTMLElement}} where the foundation piles
 *   (`[data-fpile]`) and the other seats' panels (`[data-seat]`, their sources `[data-src]`)
 */
export function createFlights({ foundations, opponents }) {
  /** @type {Flight[]} */
  const flights = [];
  let queued = false;
  let othersFlyingUntil = 0;
  let behindUntil = 0;
  const longTasks = typeof PerformanceObserver === 'function'
    && (PerformanceObserver.supportedEntryTypes || []).includes('longtask')
    ? new PerformanceObserver((list) => {
      for (const task of list.getEntries()) behindUntil = Math.max(behindUntil, task.startTime + task.duration + BEHIND_MS);
    }) : null;
  if (longTasks) longTasks.observe({ type: 'longtask' });

  function fly() {
    queued = false;
    const now = performance.now();
    const wanted = flights.splice(0).filter((f) => {
      if (f.mine) return true;
      if (now < othersFlyingUntil || now < behindUntil) return false;
      othersFlyingUntil = now + Math.max(f.ms, OTHERS_EVERY_MS);
      return true;
    });
    const found = wanted.map((f) => {
      const node = /** @type {HTMLElement | null} */ (foundations.querySelector(`[data-fpile="${f.pile}"] .card`));
      let from = f.from;
      if (!from && f.src !== undefined) {
        const panel = opponents.querySelector(`[data-seat="${f.seat}"]`);
        const srcNode = panel ? panel.querySelector(`[data-src="${f.src}"]`) : null;
        from = srcNode ? srcNode.getBoundingClientRect() : null;
      }
      return { node, from, to: node && from ? node.getBoundingClientRect() : null, ms: f.ms };
    });
    for (const f of found) if (f.to) flyFrom(f.node, f.from, f.ms, f.to);
  }

  return {
    /** @param {Flight} flight flown in a microtask, with the others of the same drawing */
    push(flight) {
      flights.push(flight);
      if (!queued) {
        queued = true;
        queueMicrotask(fly);
      }
    },
    destroy() { if (longTasks) longTasks.disconnect(); },
  };
}
