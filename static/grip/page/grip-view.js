// The Devil's Grip page's elements, and their drawing from a plain `screen` (what the
// session says is shown: grip-session.js). Only the parts whose drawing would differ are
// drawn again (grip-diff.js); the statistics when a result counted or the language
// changed, the recent games when another game is followed.

import { h } from '../../common/dom.js';
import { t } from '../../common/i18n.js';
import { getGripStats, listGripPlayed } from '../../common/storage.js';
import { drawBar, drawScore, createTop, createGrid, drawStats, drawControls, drawReplay, drawSummary, drawSync } from '../grip-panels.js';
import { drawKeys, changes } from '../grip-diff.js';
import { drawRecent } from '../grip-recent.js';

/** @typedef {import('./grip-session.js').GripScreen} GripScreen */
/** @typedef {import('../sync/grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('../grip-panels.js').PanelHandlers} PanelHandlers what the panels' buttons and fields do */
/** @typedef {Parameters<typeof drawReplay>[2]} ReplayHandlers */

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {PanelHandlers} options.on
 * @param {ReplayHandlers} options.replayOn
 * @param {() => unknown} options.onDeal the stock clicked
 * @param {((path: string) => void) | undefined} options.navigate
 */
export function createGripView(container, { on, replayOn, onDeal, navigate }) {
  const bar = h('div', { class: 'grip-bar' });
  const syncLine = h('div', { class: 'grip-sync-slot' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group', 'aria-label': t('grip.grid') });
  const summarySlot = h('div', { class: 'grip-summary-slot' });
  const controls = h('section', { class: 'panel grip-new', 'aria-labelledby': 'grip-new-title' });
  const stats = h('section', { class: 'panel grip-stats', 'aria-labelledby': 'grip-stats-title' });
  // your recent games, to watch again (grip-recent.js)
  const recent = h('section', { class: 'panel grip-recent', 'aria-labelledby': 'grip-recent-title', hidden: true });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'grip-board' }, grid);
  const summaryArea = h('div', { class: 'grip-summary-area' }, syncLine, summarySlot);
  const el = h('div', { class: 'grip' }, h('h1', { class: 'sr-only', text: t('home.gripTitle') }), bar, summaryArea, top, board, h('div', { class: 'grip-side' }, controls, stats, recent), live);
  container.append(el);

  // What is on the page, to draw only what changed.
  const drawnState = {
    /** @type {ReturnType<typeof drawKeys> | null} the keys of what is drawn (grip-diff.js); null: draw everything */
    keys: null,
    /** @type {SavedGame | null} the game whose summary was last said to screen readers */
    summaryShownFor: null,
    /** @type {string | null} the language and the count of results the statistics were drawn with */
    stats: null,
    /** @type {SavedGame | null | undefined} the game followed when the recent games were last drawn */
    recentFor: undefined,
  };
  const drawTop = createTop(top, { onDeal });
  const drawGrid = createGrid(grid);

  /** @param {GripScreen} v */
  function draw(v) {
    const replay = v.replay;
    el.classList.toggle('finished', v.finished);
    el.classList.toggle('replaying', Boolean(replay));
    el.classList.toggle('won', Boolean(v.state && v.state.won));
    // Only the parts whose drawing would differ are drawn again (grip-diff.js).
    const keys = drawKeys(v, t('lang.code'));
    const { parts, cells } = changes(drawnState.keys, keys);
    drawnState.keys = keys;
    if (parts.has('bar')) drawBar(bar, v, on);
    else if (parts.has('score')) drawScore(bar, v);
    if (parts.has('sync')) drawSync(syncLine, v, on);
    if (parts.has('top')) drawTop(v);
    drawGrid(v, cells);
    if (parts.has('summary') && replay) {
      drawReplay(summarySlot, replay, replayOn);
    } else if (parts.has('summary')) {
      const said = drawSummary(summarySlot, v, on);
      if (said && drawnState.summaryShownFor !== v.saved) {
        drawnState.summaryShownFor = v.saved;
        live.textContent = said;
      }
    }
    if (parts.has('sync') || parts.has('summary')) summaryArea.hidden = !syncLine.firstChild && !summarySlot.firstChild;
    if (!controls.firstChild || controls.dataset.busy !== String(v.busy) || controls.dataset.lang !== t('lang.code')) {
      controls.dataset.busy = String(v.busy);
      controls.dataset.lang = t('lang.code');
      drawControls(controls, { busy: v.busy, passes: v.passes, winnableOnly: v.winnableOnly }, on);
    }
    const statsKey = `${t('lang.code')} ${v.recorded}`;
    if (drawnState.stats !== statsKey) { // not on every move: they change only when a deal counts
      drawnState.stats = statsKey;
      drawStats(stats, getGripStats());
      drawnState.recentFor = undefined;
    }
    if (drawnState.recentFor !== v.saved) { // a result counted, or another game followed: the games to watch again
      drawnState.recentFor = v.saved;
      drawRecent(recent, listGripPlayed(), navigate);
    }
  }

  return {
    el,
    top,
    grid,
    draw,
    /** Everything is drawn again on the next draw (the language changed). */
    forget() { controls.dataset.lang = ''; drawnState.keys = null; },
    /** @param {string} text said to screen readers */
    announce(text) { live.textContent = text; },
    remove() { el.remove(); },
  };
}
