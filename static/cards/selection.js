// The selection both games share: what card(s) the player holds, how the page shows it
// (.selected on the held cards, .legal-target / .swap-target on where they can go,
// .holding on the board), and the pointer input that changes it (input.js: drag, click a
// card then a target, double-click).
//
// A page gives an adapter:
//   pickOf(el)            -> the selection a [data-pick] element stands for, or null
//   liftOf(sel)           -> the elements of the held cards
//   targets(sel)          -> Map of data-target key -> {build, swap} (targets.js)
//   commit(sel, key, how) -> send the move for that target; true when sent
//   quick(sel, how)       -> the double-click move; true when sent
// A target that cannot take the keyboard focus by itself (a foundation pile) gets
// tabindex 0 while it is a legal target.

import { attachCardInput } from './input.js';
import { sameSelection } from './targets.js';
import { cssEscape } from '../common/dom.js';
import { play } from '../common/sound.js';

/** @typedef {import('./input.js').DropHow} DropHow */

/**
 * @template S a selection
 * @template A an action
 * @typedef {object} SelectionAdapter
 * @property {(el: HTMLElement) => S | null} pickOf
 * @property {(sel: S) => HTMLElement[]} liftOf
 * @property {(sel: S) => Map<string, import('./targets.js').TargetEntry<A>>} targets
 * @property {(sel: S, key: string, how: DropHow) => boolean} commit
 * @property {(sel: S, how: DropHow) => boolean} quick
 */

/**
 * @template {import('./targets.js').Selection} S
 * @template A
 * @param {HTMLElement} root
 * @param {SelectionAdapter<S, A>} adapter
 */
export function createSelection(root, adapter) {
  /** @type {S | null} */
  let sel = null;
  /** @type {Element[]} */
  let focusable = [];

  const input = attachCardInput(root, {
    pickOf: adapter.pickOf,
    same: sameSelection,
    liftOf: adapter.liftOf,
    targets: adapter.targets,
    commit: adapter.commit,
    quick: adapter.quick,
    selected: () => sel,
    select,
  });

  /** @param {S | null} next */
  function select(next) {
    sel = next;
    if (next) play('select');
    paint();
  }

  function paint() {
    root.querySelectorAll('.selected').forEach((n) => n.classList.remove('selected'));
    root.querySelectorAll('.legal-target, .swap-target').forEach((n) => n.classList.remove('legal-target', 'swap-target'));
    focusable.forEach((n) => n.removeAttribute('tabindex'));
    focusable = [];
    root.classList.toggle('holding', Boolean(sel));
    if (!sel) return;
    adapter.liftOf(sel).forEach((n) => n.classList.add('selected'));
    for (const [key, entry] of adapter.targets(sel)) {
      const node = root.querySelector(`[data-target="${cssEscape(key)}"]`);
      if (!node) continue;
      node.classList.add(entry.build ? 'legal-target' : 'swap-target');
      if (!node.hasAttribute('tabindex')) {
        node.setAttribute('tabindex', '0');
        focusable.push(node);
      }
    }
  }

  return {
    get: () => sel,
    select,
    // After a redraw: forget a selection whose cards are gone, and paint it again.
    repaint() {
      if (sel && !adapter.liftOf(sel).length) sel = null;
      paint();
    },
    // Drop the held cards on a target from the keyboard; false when it is not legal.
    /**
     * @param {string} key
     * @param {DropHow} [how]
     */
    dropOn(key, how = {}) {
      if (!sel || !adapter.targets(sel).has(key)) return false;
      const held = sel;
      select(null);
      adapter.commit(held, key, how);
      return true;
    },
    clear() { sel = null; },
    /** @param {Element} el */
    activate: (el) => input.activate(el),
    dragging: () => input.dragging(),
    destroy: () => input.destroy(),
  };
}
