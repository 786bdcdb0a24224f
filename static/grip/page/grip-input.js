// The Devil's Grip page's input: picking cards up and dropping them (a click, a drag or
// a key: cards/selection.js), and the keyboard — D or space deals, T takes the talon,
// arrows move between cells, Enter picks a run or drops on the focused cell, X swaps,
// U/R undo and redo, H asks for a hint, E ends the deal, N deals a new one. What is
// legal comes from the session (grip-session.js), which plays the moves.

import { toast, cssEscape } from '../../common/dom.js';
import { t } from '../../common/i18n.js';
import { bindKeys } from '../../cards/input.js';
import { createSelection } from '../../cards/selection.js';
import { gripTargets, actionFor, stockAction, nextRun } from '../../cards/targets.js';
import { COLS } from '../grip-model.js';
import { pickOfKey, pickKeysOf, cellAfter } from '../grip-picks.js';

/** @typedef {import('../grip-rules.js').Action} Action */
/** @typedef {import('../grip-picks.js').GripSelection} GripSelection */
/** @typedef {ReturnType<typeof import('./grip-session.js').createGripSession>} GripSession */

/**
 * @param {{el: HTMLElement, top: HTMLElement, grid: HTMLElement}} view the page's elements (grip-view.js)
 * @param {GripSession} session
 */
export function createGripInput({ el, top, grid }, session) {
  const { finished, finishing, pile } = session;
  const selection = createSelection(el, { pickOf, liftOf, targets: targetMap, commit, quick: () => false });
  const select = selection.select;
  const unbindKeys = bindKeys({
    d: deal, space: deal,
    t: () => { const s = selection.get(); select(s && s.src === 'talon' ? null : talonSel()); return true; },
    u: () => { session.op({ op: 'undo' }); return true; },
    r: () => { session.op({ op: 'redo' }); return true; },
    h: () => { session.askHint(); return true; },
    e: () => { session.endDeal(); return true; },
    n: () => { session.newDeal({}); return true; },
    x: () => swapFocused(),
    Escape: () => { select(null); return true; },
    Enter: () => enterFocused(),
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => moveFocus(-COLS),
    ArrowDown: () => moveFocus(COLS),
  });

  /** @returns {GripSelection | null} */
  function talonSel() {
    const s = session.state();
    return s && s.talon && s.talon.length ? { src: 'talon' } : null;
  }

  /**
   * @param {HTMLElement} node
   * @returns {GripSelection | null}
   */
  function pickOf(node) {
    if (!session.game() || finished() || finishing()) return null;
    return pickOfKey(node.dataset.pick, (c) => pile(c).length, Boolean(talonSel()));
  }

  /**
   * @param {GripSelection | null} s
   * @returns {HTMLElement[]}
   */
  function liftOf(s) {
    if (!s) return [];
    if (s.src === 'talon') return [.../** @type {NodeListOf<HTMLElement>} */ (top.querySelectorAll('[data-pick="talon"]'))];
    const out = [];
    for (const key of pickKeysOf(s, pile(s.src).length)) {
      /** @type {HTMLElement | null} */
      const node = grid.querySelector(`[data-pick="${key}"]`);
      if (node) out.push(node);
    }
    return out;
  }

  // target key -> {build, swap} actions, from the legal list only
  /** @param {GripSelection | null} s */
  function targetMap(s) {
    return gripTargets(session.legal(), s, s && s.src !== 'talon' ? pile(s.src).length : 0);
  }

  /**
   * @param {Action} action
   * @param {{remove: () => void} | null} [ghost] a drag's ghost (input.js)
   * @param {HTMLElement | null} [targetNode]
   */
  function act(action, ghost, targetNode) {
    if (ghost) ghost.remove();
    const ok = session.op({ op: 'action', action });
    // targetNode was found by its data-target (commit): it has one
    const landed = ok && targetNode ? grid.querySelector(`[data-target="${cssEscape(/** @type {string} */ (targetNode.dataset.target))}"] .card:last-of-type`) : null;
    if (landed) landed.classList.add('landed');
    return ok;
  }

  // A drag brings its ghost (removed as the move lands); a click or a key makes none:
  // the move shows in the same frame, and measuring the cards for a ghost would only
  // make the browser lay the page out in the middle of the input.
  /**
   * @param {GripSelection} s
   * @param {string} key
   * @param {{ghost?: {remove: () => void}, shift?: boolean}} [how]
   */
  function commit(s, key, how = {}) {
    const action = actionFor(targetMap(s).get(key), how);
    if (!action) return false;
    /** @type {HTMLElement | null} */
    const node = grid.querySelector(`[data-target="${cssEscape(key)}"]`);
    act(action, how.ghost, node);
    return true;
  }

  function deal() {
    const a = stockAction(session.legal(), 'deal', 'redeal');
    if (!a) return true;
    select(null);
    act(a);
    return true;
  }

  // keyboard
  /** @returns {number | null} */
  function focusedCell() {
    const a = /** @type {HTMLElement | null} */ (document.activeElement);
    return a && a.dataset && a.dataset.cell !== undefined ? Number(a.dataset.cell) : null;
  }

  function enterFocused() {
    const a = document.activeElement;
    if (!a || !el.contains(a)) return false;
    const c = focusedCell();
    if (c === null) { selection.activate(a); return true; }
    if (selection.dropOn(`c:${c}`)) return true;
    const held = selection.get(); // a talon selection is not this cell's run: start one
    select(finished() ? null : nextRun(held && held.src !== 'talon' ? held : null, c, pile(c).length));
    return true;
  }

  function swapFocused() {
    const c = focusedCell();
    const s = selection.get();
    if (c === null || !s) return false;
    const entry = targetMap(s).get(`c:${c}`);
    if (!entry || !entry.swap) { toast(t('grip.noSwap')); return true; }
    selection.dropOn(`c:${c}`, { shift: true });
    return true;
  }

  /** @param {number} delta */
  function moveFocus(delta) {
    const c = focusedCell();
    const next = cellAfter(c, delta);
    /** @type {HTMLElement | null} */
    const node = grid.querySelector(`[data-cell="${next}"]`);
    if (node) node.focus();
    return true;
  }

  return {
    deal,
    /** Nothing held any more (a new position). */
    clear: () => selection.clear(),
    /** The player's selection dropped. */
    drop: () => select(null),
    /** The held cards and the targets painted again, after a draw. */
    repaint: () => selection.repaint(),
    destroy() {
      selection.destroy();
      unbindKeys();
    },
  };
}
