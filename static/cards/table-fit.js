// Your own cards at a racing table (Demon's, Nerts'), sized to the room left below what
// stands above them (the status bar, the foundations and, on a narrow screen, the other
// players): the CSS turns --mine-room into a card width at which the tallest pile a
// layout can hold still ends inside the window, so nothing you can play ever needs a
// scroll. Measured when what stands above changes size (the foundations wrapped to a
// new row: a ResizeObserver, which reports after the browser laid the page out, so
// reading the position then costs no layout of its own) and when the window changes
// size; not after every play.
//
// They shrink whenever the room does, but do not grow because the foundations took less
// room as they grew (on a phone they become tabs from eight piles: demon-panels.js):
// that gave your cards a few px more in the middle of the race, and every card of your
// layout was then laid out and painted again at its new size, each face an SVG image
// drawn anew, the longest task of the table on a slow CPU (130–320 ms at 4x,
// docs/performance.md). They grow again when the window changes size, and at a new
// round (its foundations start empty).

/**
 * @param {{mine: HTMLElement, results: HTMLElement, above: HTMLElement[]}} parts your layout,
 *   the results (which push it down: the race's size is kept), and what stands above it
 */
export function createTableFit({ mine, results, above }) {
  /** @type {number | null} */
  let mineRoom = null;
  let pilesBefore = 0; // the foundation piles of the drawing before the last one
  let pilesNow = 0;
  const observer = new ResizeObserver(() => fit());
  for (const node of above) observer.observe(node);

  function fit({ resized = false } = {}) {
    if (mine.hidden || results.firstChild) return;
    const top = mine.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(0, Math.floor(window.innerHeight - top - 14));
    if (room === mineRoom) return;
    if (mineRoom !== null && room > mineRoom && pilesNow > pilesBefore && !resized) return;
    mineRoom = room;
    mine.style.setProperty('--mine-room', `${room}px`);
  }
  const onResize = () => fit({ resized: true });
  window.addEventListener('resize', onResize);

  return {
    /**
     * A drawing with this many foundation piles; the first drawing is fitted before it shows.
     * @param {number} piles
     */
    drawn(piles) {
      pilesBefore = pilesNow;
      pilesNow = piles;
    },
    /** Called after the drawing: fits the first one. */
    fitFirst() { if (mineRoom === null) fit(); },
    destroy() {
      window.removeEventListener('resize', onResize);
      observer.disconnect();
    },
  };
}
