// Demon moves on their way to the server. Each sent action is kept with its selection
// and the ghost (input.js) flying its cards, until the server answers: an `ack` lets the
// ghost go (the move is drawn by then), a `rejected` or an `error` flies it back, and so
// does silence for six seconds. While a move is pending its cards stay hidden in the
// layout, even when the layout is redrawn.

const TIMEOUT_MS = 6000;

/** @typedef {import('./protocol-types.js').DemonAction} DemonAction */
/** @typedef {import('./protocol-types.js').DemonSelection} DemonSelection */
/** @typedef {import('../cards/input.js').Ghost} Ghost */
/** @typedef {{ghost: Ghost | null, sel: DemonSelection | null, action: DemonAction}} PendingMove */

/**
 * @param {{liftOf: (sel: DemonSelection) => HTMLElement[]}} adapter
 */
export function createPendingMoves({ liftOf }) {
  /** @type {Map<string, PendingMove>} action id -> the move */
  const pending = new Map();
  /**
   * @param {Ghost} ghost
   * @param {DemonSelection | null} sel
   */
  const flyBack = (ghost, sel) => ghost.flyBack(sel ? liftOf(sel) : undefined);

  /** @param {string} id */
  function expire(id) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (p.ghost && !p.ghost.removed) flyBack(p.ghost, p.sel);
  }

  return {
    /**
     * @param {string} id
     * @param {PendingMove} entry
     */
    add(id, entry) {
      pending.set(id, entry);
      setTimeout(() => expire(id), TIMEOUT_MS);
    },
    // The server applied it: returns the action, or null for an id not (or no longer) pending.
    /**
     * @param {string} id
     * @returns {DemonAction | null}
     */
    ack(id) {
      const p = pending.get(id);
      if (!p) return null;
      pending.delete(id);
      if (p.ghost) p.ghost.remove();
      return p.action;
    },
    /** @param {string} id */
    reject(id) {
      const p = pending.get(id);
      pending.delete(id);
      if (p && p.ghost) flyBack(p.ghost, p.sel);
    },
    // An error message: whatever was on its way is not coming.
    rejectAll() {
      for (const [id, p] of pending) {
        pending.delete(id);
        if (p.ghost) flyBack(p.ghost, p.sel);
      }
    },
    // A snapshot replaced the state: nothing pending means anything any more.
    clear() {
      for (const p of pending.values()) if (p.ghost) p.ghost.remove();
      pending.clear();
    },
    // This seat's own move event arrived: the ghost of the matching pending action (if
    // any) has shown it already and goes; true when there was one.
    /**
     * @param {DemonAction} action
     * @returns {boolean}
     */
    landed(action) {
      for (const p of pending.values()) {
        if (p.action.type === action.type && p.action.src === action.src) {
          if (p.ghost) p.ghost.remove();
          p.ghost = null;
          return true;
        }
      }
      return false;
    },
    // After a redraw: hide the cards of the moves still flying.
    hide() {
      for (const p of pending.values()) {
        if (p.ghost && !p.ghost.removed && p.sel) liftOf(p.sel).forEach((n) => n.classList.add('lifted'));
      }
    },
    destroy() {
      for (const p of pending.values()) if (p.ghost) p.ghost.remove();
    },
  };
}
