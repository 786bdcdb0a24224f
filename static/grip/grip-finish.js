// Auto-finish: whether the deal is certainly won from here, and the moves that
// win it. Pure (no DOM).
//
// Fair play: the search only runs when the player knows the stock's order too (the Python
// `GripView` rule: a pass has been completed, or the stock is empty), so offering to finish
// tells the player nothing they could not have worked out; before that, the page never
// offers it.
//
// The search is the Python solver's depth-first search (app/grip/rules/solver.py, `dfs`
// and `macro_moves`), ported: a position is only the sorted bottoms and tops of the piles
// and the talon + stock in turning order, and a "macro move" walks the talon cycle to a
// pointer (deals, at most one redeal) and then brings exactly one card in: the talon top
// onto a pile, or a whole pile onto another (its cell takes the next card). Swaps and
// part-pile moves never bring a card in, so a win never needs them (the argument is in the
// solver's docstring). Several move orders each get a share of the budget: they fail on
// different deals. This finds wins from far out (tens of cards left) in a few thousand
// positions, where a search over single actions gave up beyond a handful of cards.
//
// Correct by construction of the answer, whatever the search: the macro line is turned
// into real actions played through the rules module (grip-rules.js, held to the Python
// engine), and a line is returned only when that play ends in a won deal.
//
// The search is a generator that yields every few positions, so the page can run it in
// slices between frames (page/grip-session.js) and drop it when the player moves on.

import { apply, won } from './grip-rules.js';

/** @typedef {import('./grip-rules.js').GripState} GripState */
/** @typedef {import('./grip-rules.js').Action} Action */

export const FINISH_BUDGET = 6000; // positions in all, shared by the move orders
export const FINISH_SLICE = 50; // positions between two yields (about a millisecond; a slow phone a few)

/**
 * Whether a player with perfect memory knows the order of the stock (GripView.of).
 * @param {GripState} state
 * @returns {boolean}
 */
export function orderKnown(state) {
  return state.passes_used >= 2 || state.stock.length === 0;
}

// ------------------------------------------------------------ the compact position
// A card is suit * 16 + rank, so a card fits on another exactly when it is 3 greater.
/** @type {Readonly<Record<string, number>>} */
const SUIT_CODE = Object.freeze({ S: 0, H: 1, D: 2, C: 3 });
const RANK_CODE = Object.freeze(Object.fromEntries([...'A23456789TJQK'].map((r, i) => [r, i + 1])));

/**
 * @param {string} card
 * @returns {number}
 */
function enc(card) {
  return SUIT_CODE[card[1]] * 16 + RANK_CODE[card[0]];
}

/**
 * @typedef {{ bottoms: number[], tops: number[], seq: number[], p: number, used: number,
 *   allowed: number | null }} Pos
 *   bottoms, tops: sorted codes; seq: talon bottom..top then the stock in turning order;
 *   p: the talon's length
 */
/** A macro move: [pointer q, redeal first, kind (0 talon top, 1 whole pile), card]. @typedef {[number, boolean, number, number]} Move */

/**
 * @param {GripState} state
 * @returns {Pos}
 */
function posOf(state) {
  const piles = state.grid.filter((p) => p.length);
  return {
    bottoms: piles.map((p) => enc(p[0])).sort((a, b) => a - b),
    tops: piles.map((p) => enc(p[p.length - 1])).sort((a, b) => a - b),
    seq: [...state.talon.map(enc), ...[...state.stock].reverse().map(enc)],
    p: state.talon.length,
    used: state.passes_used,
    allowed: state.passes_allowed,
  };
}

/**
 * @param {Pos} pos
 * @returns {string}
 */
function keyOf(pos) {
  const used = pos.allowed !== null ? pos.used : 0;
  return `${String.fromCharCode(...pos.bottoms)}|${String.fromCharCode(...pos.tops)}|${String.fromCharCode(...pos.seq)}|${pos.p},${used}`;
}

/** Pointers reachable by deals (and one redeal when allowed), nearest first.
 * @param {number} n
 * @param {number} p
 * @param {number} used
 * @param {number | null} allowed
 * @returns {[number, boolean][]}
 */
function reachable(n, p, used, allowed) {
  /** @type {[number, boolean][]} */
  const out = [];
  const seen = new Set();
  let q = p;
  for (;;) {
    out.push([q, false]);
    seen.add(q);
    if (q >= n) break;
    q = Math.min(q + 3, n);
  }
  if (n && (allowed === null || used < allowed)) {
    q = 0;
    while (!seen.has(q)) {
      out.push([q, true]);
      seen.add(q);
      if (q >= n) break;
      q = Math.min(q + 3, n);
    }
  }
  return out;
}

export const UNLIMITED_VARIANTS = Object.freeze([0, 1, 2, 3]);
export const LIMITED_VARIANTS = Object.freeze([5, 6, 4]);

/**
 * The solver's `_key`: how a move ranks in move order `variant`.
 * @param {number} variant
 * @param {number} k the class: 0 talon play, 1 pull of a base card, 2 of a card that fits, 3 other
 * @param {number} cost how far along the cycle
 * @param {boolean} red
 * @returns {number[]}
 */
function rankKey(variant, k, cost, red) {
  const r = red ? 1 : 0;
  if (variant === 4) return [r, k <= 1 ? 0 : 1, cost, k];
  if (variant === 5) return [r, cost, k];
  if (variant === 6) return [r, k <= 2 ? 0 : 1, cost, k];
  if (variant <= 1) return [k <= 1 ? 0 : 1, cost, k];
  if (variant === 2) return [k + Math.floor(cost / 3), k];
  return [k, cost];
}

/**
 * @param {number[]} a
 * @param {number[]} b
 */
function compareKeys(a, b) {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Every macro move, best-looking first (the solver's `macro_moves`).
 * @param {Pos} pos
 * @param {number} variant
 * @returns {Move[]}
 */
function macroMoves(pos, variant) {
  const { seq, tops } = pos;
  const n = seq.length;
  if (!n) return [];
  const topSet = new Set(tops);
  const movable = [...new Set(pos.bottoms.filter((b) => (b & 15) >= 5 && topSet.has(b - 3)))]
    .sort((a, b) => (variant === 1 ? b - a : a - b));
  /** @type {{ key: number[], order: number, move: Move }[]} */
  const scored = [];
  reachable(n, pos.p, pos.used, pos.allowed).forEach(([q, red], cost) => {
    if (q) {
      const t = seq[q - 1];
      if ((t & 15) >= 5 && topSet.has(t - 3)) scored.push({ key: rankKey(variant, 0, cost, red), order: scored.length, move: [q, red, 0, t] });
    }
    if (movable.length) {
      const f = q < n ? seq[q] : seq[q - 1];
      const k = (f & 15) <= 4 ? 1 : topSet.has(f - 3) ? 2 : 3;
      const key = rankKey(variant, k, cost, red);
      for (const b of movable) scored.push({ key, order: scored.length, move: [q, red, 1, b] });
    }
  });
  scored.sort((x, y) => compareKeys(x.key, y.key) || x.order - y.order);
  return scored.map((x) => x.move);
}

/**
 * @param {number[]} sorted
 * @param {number} x
 */
function removed(sorted, x) {
  const i = sorted.indexOf(x);
  return [...sorted.slice(0, i), ...sorted.slice(i + 1)];
}

/**
 * @param {number[]} sorted
 * @param {number} x
 */
function inserted(sorted, x) {
  let i = 0;
  while (i < sorted.length && sorted[i] < x) i += 1;
  return [...sorted.slice(0, i), x, ...sorted.slice(i)];
}

/** The position after a macro move (the solver's `play`).
 * @param {Pos} pos
 * @param {Move} move
 * @returns {Pos}
 */
function playMacro(pos, [q, red, kind, c]) {
  const { seq } = pos;
  const used = pos.used + (red ? 1 : 0);
  if (kind === 0) {
    return { bottoms: pos.bottoms, tops: inserted(removed(pos.tops, c - 3), c),
      seq: [...seq.slice(0, q - 1), ...seq.slice(q)], p: q - 1, used, allowed: pos.allowed };
  }
  const at = q < seq.length ? q : q - 1; // the stock's top, or with the stock empty the talon's
  const f = seq[at];
  return { bottoms: inserted(removed(pos.bottoms, c), f), tops: inserted(removed(pos.tops, c - 3), f),
    seq: [...seq.slice(0, at), ...seq.slice(at + 1)], p: at, used, allowed: pos.allowed };
}

/**
 * Depth-first search for a macro line that brings every card in, in one move order,
 * yielding every FINISH_SLICE positions; returns the line, or null when `budget`
 * positions did not find one.
 * @param {Pos} root
 * @param {number} variant
 * @param {number} budget
 * @returns {Generator<void, Move[] | null, void>}
 */
function* macroSearch(root, variant, budget) {
  const seen = new Set([keyOf(root)]);
  /** @type {{ pos: Pos, moves: Move[], next: number, move: Move | null }[]} */
  const frames = [{ pos: root, moves: macroMoves(root, variant), next: 0, move: null }];
  let nodes = 1;
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (frame.next >= frame.moves.length) { frames.pop(); continue; }
    const move = frame.moves[frame.next++];
    const child = playMacro(frame.pos, move);
    // every frame but the first was pushed with the move that made it
    if (!child.seq.length) return [...frames.slice(1).map((f) => /** @type {Move} */ (f.move)), move];
    const key = keyOf(child);
    if (seen.has(key)) continue;
    seen.add(key);
    nodes += 1;
    if (nodes > budget) return null;
    if (nodes % FINISH_SLICE === 0) yield;
    frames.push({ pos: child, moves: macroMoves(child, variant), next: 0, move });
  }
  return null;
}

// ------------------------------------------------------------ back to real actions

/**
 * @param {GripState} state
 * @param {number} code
 * @param {'bottom' | 'top'} end
 * @returns {number}
 */
function cellWith(state, code, end) {
  return state.grid.findIndex((p) => p.length > 0 && enc(end === 'bottom' ? p[0] : p[p.length - 1]) === code);
}

/** The real actions of one macro move from `state` (the solver's `to_actions`): deals,
 *  a redeal, deals again to the pointer, then the play.
 * @param {GripState} state
 * @param {Move} move
 * @returns {Action[]}
 */
function actionsOf(state, [q, red, kind, c]) {
  /** @type {Action[]} */
  const out = [];
  let stock = state.stock.length;
  let talon = state.talon.length;
  if (red) {
    while (stock) {
      const d = Math.min(3, stock);
      stock -= d;
      talon += d;
      out.push({ type: 'deal' });
    }
    out.push({ type: 'redeal' });
    stock = talon;
    talon = 0;
  }
  while (talon !== q) {
    const d = Math.min(3, stock);
    if (!d) throw new RangeError('pointer not reachable');
    stock -= d;
    talon += d;
    out.push({ type: 'deal' });
  }
  const dst = cellWith(state, c - 3, 'top');
  if (kind === 0) {
    out.push({ type: 'talon', dst });
  } else {
    const src = cellWith(state, c, 'bottom');
    out.push({ type: 'move', src, dst, count: state.grid[src].length });
  }
  return out;
}

/**
 * The real actions of a macro line, played through the rules: the line, or null when
 * any action is refused or the play does not end won (then nothing is offered).
 * @param {GripState} state
 * @param {Move[]} macro
 * @returns {Action[] | null}
 */
function checkedLine(state, macro) {
  /** @type {Action[]} */
  const line = [];
  let s = state;
  try {
    for (const move of macro) {
      // a pile's cell matters only here, so the real grid of the moment is used
      for (const action of actionsOf(s, move)) {
        s = apply(s, action);
        line.push(action);
      }
    }
  } catch (err) {
    if (err instanceof RangeError || (err && /** @type {{code?: unknown}} */ (err).code)) return null;
    throw err;
  }
  return won(s) ? line : null;
}

/**
 * The search for a winning line from `state`, in slices: a generator that yields
 * between slices of positions and returns the actions that win the deal, or null when
 * none is found within `budget` positions or the stock's order is not known to the
 * player. Run it with `next()` until done; drop it to stop.
 * @param {GripState} state
 * @param {number} [budget]
 * @returns {Generator<void, Action[] | null, void>}
 */
export function* searchWinningLine(state, budget = FINISH_BUDGET) {
  if (state.ended || !orderKnown(state)) return null;
  if (won(state)) return [];
  const root = posOf(state);
  const variants = state.passes_allowed === null ? UNLIMITED_VARIANTS : LIMITED_VARIANTS;
  const share = Math.floor(budget / variants.length);
  for (const variant of variants) {
    const macro = yield* macroSearch(root, variant, share);
    if (macro) {
      const line = checkedLine(state, macro);
      if (line) return line;
    }
  }
  return null;
}

/**
 * The actions that win the deal from `state`, searched at once (see searchWinningLine).
 * @param {GripState} state
 * @param {number} [budget]
 * @returns {Action[] | null}
 */
export function winningLine(state, budget = FINISH_BUDGET) {
  const search = searchWinningLine(state, budget);
  for (;;) {
    const step = search.next();
    if (step.done) return step.value;
  }
}

/**
 * What is left of a proven `line` from `before` once the player has played to `after`:
 * the rest of the line when the player played its first action, else null (search again).
 * @param {GripState} before
 * @param {readonly Action[]} line
 * @param {GripState} after
 * @returns {Action[] | null}
 */
export function lineAfter(before, line, after) {
  if (!line.length) return null;
  let next;
  try {
    next = apply(before, line[0]);
  } catch {
    return null;
  }
  return JSON.stringify(next) === JSON.stringify(after) ? line.slice(1) : null;
}
