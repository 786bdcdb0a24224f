// Small DOM helpers. Every piece of text goes in as a text node: nothing here ever
// parses a string as HTML, so a player's name can never become markup.

import { planPatch } from './keyed.js';

/**
 * What `h` and `append` take as children: nodes, text (a number or string, written as a
 * text node), nothing (null, undefined, false: skipped; `true` is written as "true") or
 * arrays of these, nested to any depth.
 * @typedef {Node | string | number | boolean | null | undefined | ChildList} Children
 */
/** @typedef {ReadonlyArray<Children>} ChildList */

/**
 * The `on…` properties of `h`: a listener per DOM event, its `currentTarget` the element
 * made (`e.target` may be a descendant the event came from).
 * @template {Element} E
 * @typedef {{ [K in keyof HTMLElementEventMap as `on${K}`]?: (event: HTMLElementEventMap[K] & { currentTarget: E }) => unknown }} Handlers
 */

/**
 * The properties of `h`: `class`, `text` (the text content), `dataset`, `style` (assigned
 * to el.style), `value`, `checked`/`selected`/`disabled` (as booleans), the `on…`
 * listeners, and any other attribute (`true` writes it empty; null, undefined and false
 * leave it out).
 * @template {Element} [E=HTMLElement]
 * @typedef {Handlers<E> & {
 *   class?: string | null | false,
 *   text?: string | number | null | false,
 *   dataset?: Record<string, string>,
 *   style?: Partial<CSSStyleDeclaration>,
 *   [attribute: string]: unknown,
 * }} Props
 */

/**
 * `h(tag, props, ...children)`: a new element, typed by its tag name when that is a
 * literal (`h('button')` is an HTMLButtonElement, its `onclick` gets a MouseEvent whose
 * currentTarget is that button).
 * @typedef {{
 *   <K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props<HTMLElementTagNameMap[K]> | null, ...children: Children[]): HTMLElementTagNameMap[K],
 *   (tag: string, props?: Props | null, ...children: Children[]): HTMLElement,
 * }} MakeElement
 */

/**
 * @param {string} tag
 * @param {{ [name: string]: unknown } | null} [props]
 * @param {...Children} children
 * @returns {HTMLElement}
 */
function makeElement(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

// (JSDoc's @overload loses a rest parameter after an optional one, so the two
// signatures are a type given to the one function.)
export const h = /** @type {MakeElement} */ (makeElement);

/**
 * @param {HTMLElement} el
 * @param {{ [name: string]: unknown } | null | undefined} props
 */
function setProps(el, props) {
  if (!props) return;
  // the element's properties by name, for the few written as properties
  const fields = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el));
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = /** @type {string} */ (value);
    else if (key === 'text') el.textContent = /** @type {string} */ (value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    } else if (key === 'value' && 'value' in el) fields.value = value;
    else if (key === 'checked' || key === 'selected' || key === 'disabled') {
      fields[key] = Boolean(value);
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
}

/**
 * @template {ParentNode} P
 * @param {P} el
 * @param {Children[]} children
 * @returns {P}
 */
export function append(el, children) {
  for (const child of /** @type {unknown[]} */ (children).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * @template {Node} N
 * @param {N} el
 * @returns {N}
 */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * An element that can hold the focus and carries a dataset: every HTML, SVG and MathML
 * element is one (the DOM's HTMLOrSVGElement mixin), and only those can be focused.
 * @typedef {Element & HTMLOrSVGElement} FocusableElement
 */

/** The element with the keyboard focus, if any. */
function focusedElement() {
  return /** @type {FocusableElement | null} */ (document.activeElement);
}

/**
 * Where the keyboard focus is inside `container` now, to give it back after a redraw
 * (`restore`): to the element with the same data-focus key in the new content, with a
 * text field's caret and selection. A redraw blurs the focused field even when it keeps
 * the very element: moving a node (a section made once and put into each new page)
 * takes the focus from it, already while the new content is being built. A page
 * redrawn while somebody types (the home page when its recent games arrive) must not
 * swallow the next keys.
 * @param {Element} container
 * @returns {{restore: () => void}}
 */
export function rememberFocus(container) {
  const active = focusedElement();
  const key = active && container.contains(active) ? active.dataset.focus : null;
  const caret = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
    ? { start: active.selectionStart, end: active.selectionEnd, direction: active.selectionDirection }
    : null;
  return {
    restore() {
      if (!key) return;
      const again = /** @type {FocusableElement | null} */ (container.querySelector(`[data-focus="${cssEscape(key)}"]`));
      if (!again) return;
      if (focusedElement() !== again) again.focus({ preventScroll: true });
      if (caret && caret.start !== null && caret.end !== null
        && (again instanceof HTMLInputElement || again instanceof HTMLTextAreaElement)) {
        again.setSelectionRange(caret.start, caret.end, caret.direction ?? undefined);
      }
    },
  };
}

// Replace the children of `container` with `children`, keeping keyboard focus on the
// element with the same data-focus key when there is one in the new content
// (`rememberFocus`; a caller that builds the new content from nodes it keeps calls
// `rememberFocus` itself before building).
/**
 * @param {Element} container
 * @param {...Children} children
 */
export function replaceChildren(container, ...children) {
  const focus = rememberFocus(container);
  clear(container);
  append(container, children);
  focus.restore();
}

// Set a node's text only when it differs: writing the same text again still replaces the
// text node, and the browser then recalculates style and layout for nothing (a table
// updated on every play did that many times a second).
/**
 * @param {Node} node
 * @param {unknown} text
 */
export function setText(node, text) {
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

// Shows or hides a node, writing only a change: `hidden` written again with the value it
// has still makes Chromium recalculate style (and draw a frame), which a 200 ms clock
// tick did five times a second on a table where nothing happened.
/**
 * @param {HTMLElement} node
 * @param {unknown} hidden
 */
export function setHidden(node, hidden) {
  if (node.hidden !== Boolean(hidden)) node.hidden = Boolean(hidden);
}

/**
 * One piece a keyed container draws: its key, what it is drawn from (compared part by
 * part with Object.is), and how to make its node.
 * @template K
 * @typedef {{ key: K, parts: readonly unknown[], make: () => Element }} KeyedItem
 */

// A container whose children are drawn by key and made again only when what they are
// drawn from changed (the plan is keyed.js, pure and tested). `patch(items)` takes
// [{key, parts, make}] in the order to show, and answers how many nodes it made:
// `make()` returns the new node for a key whose parts differ from the last drawing (or
// that was not drawn yet); a kept node is not touched at all, so a card
// under the pointer or a running animation in it survives other seats' plays. Nodes the
// container holds that it did not draw (a note laid over it) are left where they are.
// Keyboard focus inside a node that is made again moves to the same data-focus key in
// its replacement.
/**
 * @template [K=unknown]
 * @param {Element} container
 * @returns {{ patch: (items: KeyedItem<K>[]) => number }}
 */
export function keyedChildren(container) {
  /** @type {Map<K, { node: Element, parts: readonly unknown[] }>} */
  const drawn = new Map();
  return {
    patch(items) {
      const previous = new Map([...drawn].map(([key, d]) => [key, d.parts]));
      const plan = planPatch(previous, items);
      const remake = new Set(plan.make);
      const active = focusedElement();
      for (const key of plan.drop) {
        const gone = drawn.get(key);
        if (gone) gone.node.remove();
        drawn.delete(key);
      }
      /** @type {Element | null} */
      let ref = null;
      for (const item of items) {
        let entry = drawn.get(item.key);
        if (remake.has(item.key)) {
          const node = item.make();
          const old = entry ? entry.node : null;
          const focusKey = old && active && old.contains(active) ? active.dataset.focus : null;
          if (old) old.replaceWith(node);
          entry = { node, parts: item.parts };
          drawn.set(item.key, entry);
          if (focusKey) {
            const again = /** @type {FocusableElement | null} */ (node.matches(`[data-focus="${cssEscape(focusKey)}"]`) ? node
              : node.querySelector(`[data-focus="${cssEscape(focusKey)}"]`));
            if (again) again.focus({ preventScroll: true });
          }
        }
        // every item is either kept (so drawn before) or made just now
        const shown = /** @type {{ node: Element }} */ (entry);
        /** @type {Node | null} */
        const want = ref ? ref.nextSibling : container.firstChild;
        if (shown.node !== want) container.insertBefore(shown.node, want);
        ref = shown.node;
      }
      return plan.make.length;
    },
  };
}

/**
 * @param {string} text
 * @returns {string}
 */
export function cssEscape(text) {
  return window.CSS && CSS.escape ? CSS.escape(text) : String(text).replace(/["\\]/g, '\\$&');
}

/** @type {HTMLDivElement | null} */
let toastBox = null;

// A short note at the bottom of the screen, read out by screen readers.
/**
 * @param {string} message
 * @param {string} [kind] 'info', 'warn', 'error', …: the class toast-<kind>
 * @param {number} [ms]
 * @returns {HTMLDivElement}
 */
export function toast(message, kind = 'info', ms = 3200) {
  if (!toastBox) {
    toastBox = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(toastBox);
  }
  const note = h('div', { class: `toast toast-${kind}`, text: message });
  toastBox.append(note);
  setTimeout(() => note.classList.add('toast-out'), ms);
  setTimeout(() => note.remove(), ms + 400);
  return note;
}

/**
 * @param {Children} label
 * @param {(event: MouseEvent & { currentTarget: HTMLButtonElement }) => unknown} onClick
 * @param {Props<HTMLButtonElement>} [props]
 * @returns {HTMLButtonElement}
 */
export function button(label, onClick, props = {}) {
  return h('button', { type: 'button', ...props, onclick: onClick }, label);
}

// A modal dialog with a title; returns {el, close}. Escape and the close button close it.
/**
 * @param {string} title
 * @param {Children} body
 * @param {{ onClose?: () => void, wide?: boolean }} [options]
 * @returns {{ el: HTMLDivElement, close: () => void }}
 */
export function modal(title, body, { onClose, wide = false } = {}) {
  const previous = focusedElement();
  const closeBtn = h('button', { type: 'button', class: 'modal-close', 'aria-label': '×' }, '×');
  const box = h('div', { class: wide ? 'modal-box wide' : 'modal-box', role: 'dialog',
    'aria-modal': 'true', 'aria-label': title, tabindex: '-1' },
  h('div', { class: 'modal-head' }, h('h2', { text: title }), closeBtn), body);
  const shade = h('div', { class: 'modal-shade' }, box);
  function close() {
    shade.remove();
    document.removeEventListener('keydown', onKey, true);
    // back to where the focus was; if the page redrew that element meanwhile (a setting
    // changed in the dialog), to its new copy with the same id
    const back = previous && !previous.isConnected && previous.id ? document.getElementById(previous.id) : previous;
    if (back && back.focus) back.focus({ preventScroll: true });
    if (onClose) onClose();
  }
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(); return; }
    if (e.key === 'Tab') keepFocusIn(box, e);
  }
  closeBtn.addEventListener('click', close);
  shade.addEventListener('click', (e) => { if (e.target === shade) close(); });
  document.addEventListener('keydown', onKey, true);
  document.body.append(shade);
  box.focus();
  return { el: box, close };
}

// Tab and Shift+Tab go round the dialog's own controls instead of wandering to the
// page behind it.
/**
 * @param {HTMLElement} box
 * @param {KeyboardEvent} e
 */
function keepFocusIn(box, e) {
  // `disabled`: the form controls have it; on the others it is undefined
  const items = [.../** @type {NodeListOf<FocusableElement & { disabled?: boolean }>} */ (
    box.querySelectorAll('button, a[href], input, select, textarea, [tabindex="0"]'))]
    .filter((el) => !el.disabled && el.getClientRects().length);
  if (!items.length) { e.preventDefault(); box.focus(); return; }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (!box.contains(active)) { e.preventDefault(); first.focus(); return; }
  if (e.shiftKey && (active === first || active === box)) { e.preventDefault(); last.focus(); return; }
  if (!e.shiftKey && active === last) { e.preventDefault(); first.focus(); }
}

/**
 * @param {number} ms
 * @returns {string} "m:ss"
 */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

// Animations are off: the player's setting, which starts off when the system asks for
// reduced motion (settings.js puts the class on <html>; settings.css stops the CSS ones).
export function animationsOff() {
  return document.documentElement.classList.contains('no-motion');
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const ICONS = {
  copy: ['M8 8h11v12H8z', 'M5 16V4h11'],
  share: ['M12 3v12', 'M7 8l5-5 5 5', 'M5 13v7h14v-7'],
  clock: ['M21 12a9 9 0 1 1-18 0a9 9 0 1 1 18 0', 'M12 7v5l3 2'],
  undo: ['M9 5L4 10l5 5', 'M4 10h10a5 5 0 0 1 0 10h-3'],
  redo: ['M15 5l5 5-5 5', 'M20 10H10a5 5 0 0 0 0 10h3'],
  settings: ['M4 7h9', 'M17 7h3', 'M4 17h3', 'M11 17h9', 'M15 5a2 2 0 1 1 0 4a2 2 0 1 1 0-4', 'M9 15a2 2 0 1 1 0 4a2 2 0 1 1 0-4'],
  // an eye struck through: no longer shown (an open table taken off the list)
  unlist: ['M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z', 'M15 12a3 3 0 1 1-6 0a3 3 0 1 1 6 0', 'M4 4l16 16'],
  book: ['M12 6.5C9.5 4.8 6.5 4.5 3 5v13c3.5-.5 6.5-.2 9 1.5c2.5-1.7 5.5-2 9-1.5V5c-3.5-.5-6.5-.2-9 1.5z', 'M12 6.5v13'],
};

/** @typedef {keyof typeof ICONS} IconName */

// A small line icon drawn with SVG elements (no markup strings involved).
/**
 * @param {IconName} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of ICONS[name] || []) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
