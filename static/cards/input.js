// Pointer and keyboard input shared by both games.
//
// A view marks what can be picked up with data-pick and where things can go with
// data-target, and gives this module a small adapter:
//   pickOf(el)            -> a selection for a [data-pick] element, or null
//   same(a, b)            -> whether two selections are the same
//   liftOf(sel)           -> the elements that move with it (a run of cards)
//   targets(sel)          -> Set of data-target keys that are legal for it (from the
//                            server's legal actions — never from rules)
//   commit(sel, key, how) -> send the move; returns true when sent
//   quick(sel, how)       -> the double-click action (to a foundation); true when sent
//   selected() / select(sel|null)
// Input: drag with mouse or finger (pointer events), click/tap a card then a target,
// double-click/double-tap for the quick action.

import { h, animationsOff } from '../common/dom.js';

const DRAG_THRESHOLD = 6;
const DOUBLE_MS = 380;

/** @typedef {ReturnType<typeof makeGhost>} Ghost */
/** @typedef {{ghost?: Ghost, shift?: boolean}} DropHow how a drop was made: the dragged ghost, Shift held */
/** @typedef {{left: number, top: number, width: number}} Box where something is on the screen */

/**
 * What a page tells the input about its cards (the comment at the top of this file).
 * @template S a selection
 * @typedef {object} CardInputAdapter
 * @property {(el: HTMLElement) => S | null} pickOf
 * @property {(a: S, b: S) => boolean} same
 * @property {(sel: S) => HTMLElement[]} liftOf
 * @property {(sel: S) => {has(key: string): boolean}} targets
 * @property {(sel: S, key: string, how: DropHow) => boolean} commit
 * @property {(sel: S, how: DropHow) => boolean} quick
 * @property {() => S | null} selected
 * @property {(sel: S | null) => void} select
 */

/** @param {EventTarget | null} target */
const elementOf = (target) => /** @type {HTMLElement} */ (target);

/**
 * @template S
 * @param {HTMLElement} root
 * @param {CardInputAdapter<S>} adapter
 */
export function attachCardInput(root, adapter) {
  /** @type {{x: number, y: number, el: HTMLElement | null, sel: S | null, id: number, target: HTMLElement} | null} */
  let down = null;
  /** @type {{ghost: Ghost, sel: S, legal: {has(key: string): boolean}, hover: string | null} | null} */
  let drag = null;
  /** @type {{sel: S | null, time: number}} */
  let lastTap = { sel: null, time: 0 };

  /** @param {PointerEvent} e */
  function onDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const el = /** @type {HTMLElement | null} */ (elementOf(e.target).closest('[data-pick]'));
    if (!el || !root.contains(el)) {
      down = { x: e.clientX, y: e.clientY, el: null, sel: null, id: e.pointerId, target: elementOf(e.target) };
      return;
    }
    const sel = adapter.pickOf(el);
    down = { x: e.clientX, y: e.clientY, el, sel, id: e.pointerId, target: elementOf(e.target) };
    if (sel) e.preventDefault(); // no text selection, no native image drag
  }

  /** @param {PointerEvent} e */
  function onMove(e) {
    if (!down || e.pointerId !== down.id) return;
    if (!drag) {
      if (!down.sel) return;
      if (Math.hypot(e.clientX - down.x, e.clientY - down.y) < DRAG_THRESHOLD) return;
      const lift = adapter.liftOf(down.sel);
      if (!lift.length) return;
      adapter.select(down.sel);
      drag = { ghost: makeGhost(adapter.liftOf(down.sel)), sel: down.sel,
        legal: adapter.targets(down.sel), hover: null };
      document.body.classList.add('dragging');
    }
    e.preventDefault();
    drag.ghost.moveBy(e.clientX - down.x, e.clientY - down.y);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && /** @type {HTMLElement | null} */ (under.closest('[data-target]'));
    const key = target && root.contains(target) && drag.legal.has(target.dataset.target || '')
      ? target.dataset.target || null : null;
    if (key !== drag.hover) {
      root.querySelectorAll('.drop-hover').forEach((n) => n.classList.remove('drop-hover'));
      if (key && target) target.classList.add('drop-hover');
      drag.hover = key;
    }
  }

  /** @param {PointerEvent} e */
  function onUp(e) {
    if (!down || e.pointerId !== down.id) return;
    const was = down;
    down = null;
    if (drag) {
      const { ghost, sel, hover } = drag;
      drag = null;
      document.body.classList.remove('dragging');
      root.querySelectorAll('.drop-hover').forEach((n) => n.classList.remove('drop-hover'));
      adapter.select(null);
      const sent = hover ? adapter.commit(sel, hover, { ghost, shift: e.shiftKey }) : false;
      if (!sent) ghost.flyBack();
      return;
    }
    const under = /** @type {HTMLElement | null} */ (document.elementFromPoint(e.clientX, e.clientY)) || was.target;
    if (!root.contains(under)) return;
    activate(under, { shift: e.shiftKey });
  }

  /** @param {PointerEvent} e */
  function onCancel(e) {
    if (!down || e.pointerId !== down.id) return;
    down = null;
    if (drag) {
      document.body.classList.remove('dragging');
      drag.ghost.flyBack();
      drag = null;
      adapter.select(null);
    }
  }

  // A click, a tap, or Enter on a focused element.
  /**
   * @param {Element} el
   * @param {{shift?: boolean}} [how]
   */
  function activate(el, { shift = false } = {}) {
    const now = performance.now();
    const current = adapter.selected();
    const target = /** @type {HTMLElement | null} */ (el.closest('[data-target]'));
    const pickEl = /** @type {HTMLElement | null} */ (el.closest('[data-pick]'));
    const sel = pickEl ? adapter.pickOf(pickEl) : null;
    if (sel && lastTap.sel && adapter.same(sel, lastTap.sel) && now - lastTap.time < DOUBLE_MS) {
      lastTap = { sel: null, time: 0 };
      adapter.select(null);
      adapter.quick(sel, {});
      return;
    }
    const targetKey = target ? target.dataset.target : undefined;
    if (current && targetKey !== undefined && adapter.targets(current).has(targetKey)) {
      lastTap = { sel: null, time: 0 };
      adapter.select(null);
      adapter.commit(current, targetKey, { shift });
      return;
    }
    if (sel) {
      lastTap = { sel, time: now };
      adapter.select(current && adapter.same(current, sel) ? null : sel);
      return;
    }
    if (current && !el.closest('button')) adapter.select(null);
  }

  root.addEventListener('pointerdown', onDown);
  window.addEventListener('pointermove', onMove, { passive: false });
  window.addEventListener('pointerup', onUp);
  window.addEventListener('pointercancel', onCancel);
  /** @param {DragEvent} e */
  const noDrag = (e) => { const el = elementOf(e.target); if (el.closest && el.closest('[data-pick]')) e.preventDefault(); };
  root.addEventListener('dragstart', noDrag);

  return {
    activate,
    // the selection being dragged right now, if any (views keep its cards hidden when
    // they redraw mid-drag)
    dragging: () => (drag ? drag.sel : null),
    cancel() {
      if (drag) { drag.ghost.remove(); drag = null; document.body.classList.remove('dragging'); }
      down = null;
    },
    destroy() {
      root.removeEventListener('pointerdown', onDown);
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onCancel);
      root.removeEventListener('dragstart', noDrag);
      if (drag) drag.ghost.remove();
    },
  };
}

// Copies a card element without copying its style attribute (a strict CSP would refuse
// a copied inline style); the look is set again through the CSSOM.
/** @param {HTMLElement} el */
function copyCard(el) {
  const copy = document.createElement('div');
  copy.className = el.className;
  copy.classList.remove('lifted', 'selected', 'legal-target', 'drop-hover');
  copy.style.backgroundImage = el.style.backgroundImage;
  const owner = el.style.getPropertyValue('--owner');
  if (owner) copy.style.setProperty('--owner', owner);
  for (const child of el.children) {
    if (child.classList.contains('owner-tag')) copy.append(h('span', { class: 'owner-tag', text: child.textContent }));
  }
  return copy;
}

// A floating copy of some cards that follows the pointer or flies somewhere; the
// originals are hidden meanwhile.
/**
 * @param {(HTMLElement | null | undefined)[]} elements
 * @param {{hide?: boolean}} [options]
 */
export function makeGhost(elements, { hide = true } = {}) {
  const els = elements.filter((el) => el !== null && el !== undefined);
  const rects = els.map((el) => el.getBoundingClientRect());
  const first = rects[0] || { left: 0, top: 0, width: 0, height: 0 };
  const box = h('div', { class: 'ghost', 'aria-hidden': 'true' });
  box.style.left = `${first.left}px`;
  box.style.top = `${first.top}px`;
  els.forEach((el, i) => {
    const copy = copyCard(el);
    copy.style.position = 'absolute';
    copy.style.left = `${rects[i].left - first.left}px`;
    copy.style.top = `${rects[i].top - first.top}px`;
    copy.style.width = `${rects[i].width}px`;
    copy.style.height = `${rects[i].height}px`;
    box.append(copy);
  });
  document.body.append(box);
  if (hide) els.forEach((el) => el.classList.add('lifted'));
  let hidden = hide ? els : [];
  let removed = false;
  const speed = () => (animationsOff() ? 1 : 200);

  const ghost = {
    el: box,
    origin: first,
    /**
     * @param {number} dx
     * @param {number} dy
     */
    moveBy(dx, dy) {
      box.style.transition = 'none';
      box.style.transform = `translate(${dx}px, ${dy}px)`;
    },
    // Fly so that the first card lands on `rect` (scaled to its size).
    /**
     * @param {Box} rect
     * @param {() => void} [then]
     */
    flyTo(rect, then) {
      const scale = first.width ? rect.width / first.width : 1;
      box.style.transformOrigin = '0 0';
      box.style.transition = `transform ${speed()}ms ease-out`;
      box.style.transform = `translate(${rect.left - first.left}px, ${rect.top - first.top}px) scale(${scale})`;
      if (then) setTimeout(then, speed());
    },
    // Fly back to where the cards are now (the view may have re-drawn them), then show
    // them again.
    /** @param {HTMLElement[]} [current] */
    flyBack(current) {
      const now = (current || els).filter((el) => el && el.isConnected);
      const to = now.length ? now[0].getBoundingClientRect() : first;
      now.forEach((el) => el.classList.add('lifted'));
      hidden = [...new Set([...hidden, ...now])];
      box.classList.add('returning');
      box.style.transformOrigin = '0 0';
      box.style.transition = `transform ${speed() + 60}ms ease-in-out`;
      box.style.transform = `translate(${to.left - first.left}px, ${to.top - first.top}px)`;
      setTimeout(() => ghost.remove(), speed() + 80);
    },
    remove() {
      if (removed) return;
      removed = true;
      box.remove();
      hidden.forEach((el) => el.classList.remove('lifted'));
    },
    get removed() { return removed; },
  };
  return ghost;
}

// Animate an element from where something else was (FLIP): used for other players'
// plays flying from their layout to a foundation, and for draws. `toRect` is where the
// element is now when the caller has read it already (reading it here would make the
// browser lay the page out again if anything changed since). A Web Animation of
// `transform` alone: the compositor runs it, with no style written per frame.
/**
 * @param {HTMLElement | null} el
 * @param {Box | null | undefined} fromRect
 * @param {number} [ms]
 * @param {Box | null} [toRect]
 */
export function flyFrom(el, fromRect, ms = 280, toRect = null) {
  if (!el || !fromRect || animationsOff()) return;
  const to = toRect || el.getBoundingClientRect();
  if (!to.width) return;
  const dx = fromRect.left - to.left;
  const dy = fromRect.top - to.top;
  const scale = fromRect.width / to.width;
  el.style.transformOrigin = '0 0';
  el.classList.add('flying');
  const flight = el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: 'none' }],
    { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
  const land = () => el.classList.remove('flying');
  flight.onfinish = land;
  flight.oncancel = land;
}

// Keyboard shortcuts for a view. Ignored while typing in a field, with Ctrl/Alt/Meta,
// or while a dialog is open. `map` keys are KeyboardEvent.key values in lower case.
/**
 * @param {Record<string, (e: KeyboardEvent) => boolean | void>} map
 * @returns {() => void} unbinds them
 */
export function bindKeys(map) {
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = /** @type {HTMLElement | null} */ (e.target);
    if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
    if (document.querySelector('.modal-shade')) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const fn = map[key] || (e.key === ' ' ? map.space : null);
    if (!fn) return;
    if (key === 'Enter' || e.key === ' ') {
      // let real buttons and links keep their own Enter/Space
      if (t && (t.tagName === 'BUTTON' || t.tagName === 'A')) return;
    }
    if (fn(e) !== false) e.preventDefault();
  }
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
