// Devil's Grip's rules, in the browser: the deal, the legal actions, apply, rule 7's
// refill, rule 10's exact end, the score and the rating. Pure (no DOM, no imports), so
// solo play can answer at once and offline.
//
// The Python engine (app/grip/rules/) is the authority; this is a second, independent
// implementation of the same rules (docs/numbered-rules.md, "Devil's Grip", 1-12) that
// speaks its JSON: a state is exactly `GripState.to_json()`'s object and an action
// exactly `grip_action_to_json`'s, so the page and the server exchange the same shapes.
// tests/engine/test_grip_js_differential.py plays thousands of seeded games through
// both and fails on the first step where they differ: a change to one engine must be
// made to the other (docs/architecture.md, "Devil's Grip's rules exist twice").
//
// Layout: 24 cells, 3 rows x 8 columns, row-major (cell = row * 8 + col). A pile is an
// array of card strings ("TS") bottom to top; stock and talon are arrays whose *last*
// element is the top card. States and their arrays are frozen: `apply` returns a new
// state (sharing the piles it did not touch) and never changes the one it was given.

/** A card: rank letter (A 2-9 T J Q K) then suit letter (S H D C), e.g. "TS". @typedef {string} Card */
/** A pile, bottom to top. @typedef {readonly Card[]} Pile */
/**
 * A position, exactly `GripState.to_json()` (key order included); frozen.
 * @typedef {Readonly<{
 *   grid: readonly Pile[],
 *   stock: readonly Card[],
 *   talon: readonly Card[],
 *   passes_allowed: number | null,
 *   passes_used: number,
 *   ended: boolean,
 * }>} GripState
 */
/** @typedef {{ type: 'deal' }} DealAction */
/** @typedef {{ type: 'redeal' }} RedealAction */
/** @typedef {{ type: 'talon', dst: number }} TalonAction */
/** @typedef {{ type: 'move', src: number, dst: number, count: number }} MoveAction */
/** @typedef {{ type: 'swap', a: number, b: number }} SwapAction */
/** @typedef {{ type: 'end' }} EndAction */
/**
 * An action, exactly `grip_action_to_json`'s object.
 * @typedef {DealAction | RedealAction | TalonAction | MoveAction | SwapAction | EndAction} Action
 */
/** @typedef {'win' | 'brilliant' | 'excellent' | 'good'} Rating */

export const ROWS = 3;
export const COLS = 8;
export const CELLS = ROWS * COLS;
export const MAX_PILE = 4;
export const DRAW = 3;
export const PASS_OPTIONS = Object.freeze([1, 3, null]);

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
// Rank (1 = ace .. 13 = king) by its letter: a table, because card strings are compared
// thousands of times per legal list and indexOf would dominate.
const RANK_OF = Object.freeze(Object.fromEntries([...RANKS].map((r, i) => [r, i + 1])));

/** An action or position the rules do not allow (Python: `IllegalAction`). */
export class IllegalAction extends Error {
  /** @param {string} [message] */
  constructor(message) {
    super(message);
    this.name = 'IllegalAction';
    /** @type {string} the server's error code for it */
    this.code = 'illegal';
  }
}

/** Any action after the deal has ended (Python: `GameOver`, an `IllegalAction`). */
export class GameOver extends IllegalAction {
  constructor(message = 'the deal is over') {
    super(message);
    this.name = 'GameOver';
    this.code = 'round_over';
  }
}

// ------------------------------------------------------------------------- the deal
// Rule 1: the same number is always the same deal, on every machine and in both
// engines. So this is SplitMix64 exactly as app/common/rng.py has it, in BigInt (the
// arithmetic is 64-bit unsigned, which a JS number cannot hold).

const MASK64 = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;
const TWO64 = 1n << 64n;

/** SplitMix64: a 64-bit state advanced by a fixed odd constant and mixed twice. */
export class SplitMix64 {
  /** @param {number | bigint} seed */
  constructor(seed) {
    this.state = BigInt.asUintN(64, BigInt(seed));
  }

  /** The next 64-bit output, as a BigInt. */
  nextU64() {
    this.state = (this.state + GOLDEN_GAMMA) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }

  /** A uniform integer in [0, n) (a JS number): the top sliver that would bias the
   *  modulo is rejected, as the Python generator does, so both draw the same values. */
  /**
   * @param {number} n
   * @returns {number}
   */
  below(n) {
    if (!(n > 0)) throw new RangeError('n must be positive');
    const big = BigInt(n);
    const limit = TWO64 - (TWO64 % big);
    for (;;) {
      const x = this.nextU64();
      if (x < limit) return Number(x % big);
    }
  }

  /** Fisher-Yates in place: from the last index down to 1, swap with `below(i + 1)`. */
  /**
   * @template T
   * @param {T[]} items
   * @returns {T[]}
   */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = this.below(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

/** Several integers folded into one 64-bit seed (BigInt), one SplitMix64 step each, so
 *  nearby inputs give unrelated decks (app/common/rng.py's `derive_seed`). */
/**
 * @param {...(number | bigint)} parts
 * @returns {bigint}
 */
export function deriveSeed(...parts) {
  let acc = 0n;
  for (const part of parts) acc = new SplitMix64(acc ^ BigInt.asUintN(64, BigInt(part))).nextU64();
  return acc;
}

/** The 96 cards before shuffling: deck one then deck two, suits S H D C, ranks 2..K. */
/** @returns {Card[]} */
export function gripDeck() {
  /** @type {Card[]} */
  const one = [];
  for (const suit of SUITS) for (let rank = 2; rank <= 13; rank += 1) one.push(RANKS[rank - 1] + suit);
  return one.concat(one);
}

/** @param {number | bigint} number */
function checkDealNumber(number) {
  const ok = (typeof number === 'bigint' || Number.isSafeInteger(number)) && BigInt(number) >= 0n
    && BigInt(number) <= MASK64;
  if (!ok) throw new RangeError('a deal number is an integer 0 .. 2**64-1');
}

/** The 96 cards of deal `number` in shuffled order (a number or a BigInt): cards 0..23
 *  go to cells 0..23, card 24 is the first one the first deal turns up. */
/**
 * @param {number | bigint} number
 * @returns {Card[]}
 */
export function dealCards(number) {
  checkDealNumber(number);
  return new SplitMix64(deriveSeed(number)).shuffle(gripDeck());
}

// ------------------------------------------------------------------------- cards

/** A card's rank, 1 (ace) .. 13 (king). */
/**
 * @param {Card} card
 * @returns {number}
 */
export function rankOf(card) {
  return RANK_OF[card[0]];
}

/** Rule 3: `card` may lie on `onto`: the same suit, exactly three ranks higher. */
/**
 * @param {Card} card
 * @param {Card} onto
 * @returns {boolean}
 */
export function fits(card, onto) {
  return card[1] === onto[1] && RANK_OF[card[0]] === RANK_OF[onto[0]] + 3;
}

/** The building chain of a card: 0 for 2-5-8-J, 1 for 3-6-9-Q, 2 for 4-7-10-K. */
/**
 * @param {Card} card
 * @returns {number}
 */
export function chainOf(card) {
  return (RANK_OF[card[0]] - 2) % 3;
}

/** Rule 3: at most four cards, each lying legally on the one below it. */
/**
 * @param {Pile} pile
 * @returns {boolean}
 */
export function isChain(pile) {
  if (pile.length > MAX_PILE) return false;
  for (let i = 0; i + 1 < pile.length; i += 1) if (!fits(pile[i + 1], pile[i])) return false;
  return true;
}

/** A card string in canonical form ("TS"); accepts lower case and "10" for ten, as the
 *  Python `Card.parse` does. Throws RangeError for anything else. */
/**
 * @param {unknown} text
 * @returns {Card}
 */
export function parseCard(text) {
  if (typeof text !== 'string') throw new RangeError(`not a card: ${String(text)}`);
  let t = text.trim().toUpperCase();
  if (t.startsWith('10')) t = `T${t.slice(2)}`;
  if (t.length !== 2 || !RANKS.includes(t[0]) || !SUITS.includes(t[1])) throw new RangeError(`not a card: ${text}`);
  return t;
}

/** A person's name for a cell: row 1-3 and column 1-8, e.g. "r2c5" for cell 12. */
/**
 * @param {number} cell
 * @returns {string}
 */
export function cellName(cell) {
  return `r${Math.floor(cell / COLS) + 1}c${(cell % COLS) + 1}`;
}

// ------------------------------------------------------------------------- state

/**
 * @param {readonly Pile[]} grid
 * @param {readonly Card[]} stock
 * @param {readonly Card[]} talon
 * @param {number | null} passesAllowed
 * @param {number} passesUsed
 * @param {boolean} ended
 * @returns {GripState}
 */
function makeState(grid, stock, talon, passesAllowed, passesUsed, ended) {
  // The key order is GripState.to_json()'s, so JSON.stringify gives the server's text.
  return Object.freeze({
    grid: Object.freeze(grid),
    stock: Object.freeze(stock),
    talon: Object.freeze(talon),
    passes_allowed: passesAllowed,
    passes_used: passesUsed,
    ended,
  });
}

/**
 * @param {GripState} state
 * @returns {GripState}
 */
function withEnded(state) {
  return makeState(state.grid, state.stock, state.talon, state.passes_allowed, state.passes_used, true);
}

/**
 * Rule 10 applied at creation: a position in which no card can ever enter is over.
 * @param {GripState} state
 * @returns {GripState}
 */
function withEndDetected(state) {
  return !state.ended && stuck(state) ? withEnded(state) : state;
}

/**
 * @param {number | null} passes
 * @param {number} passesUsed
 */
function checkPasses(passes, passesUsed) {
  if (passes !== null && !(Number.isInteger(passes) && passes >= 1)) {
    throw new RangeError('passes must be a positive integer (1 or 3) or null for unlimited');
  }
  if (!Number.isInteger(passesUsed) || passesUsed < 1) throw new RangeError('passes_used must be at least 1');
  if (passes !== null && passesUsed > passes) throw new RangeError('passes_used exceeds the pass limit');
}

/** Rules 1-2: deal `number` with a pass limit of 1, 3 or null (unlimited). */
/**
 * @param {number | bigint} number
 * @param {number | null} [passes]
 * @returns {GripState}
 */
export function deal(number, passes = null) {
  checkPasses(passes, 1);
  const cards = dealCards(number);
  const grid = cards.slice(0, CELLS).map((c) => Object.freeze([c]));
  const stock = cards.slice(CELLS).reverse();
  return withEndDetected(makeState(grid, stock, [], passes, 1, false));
}

/**
 * @param {string | Iterable<unknown>} values
 * @returns {Card[]}
 */
function cardList(values) {
  const items = typeof values === 'string' ? values.split(/\s+/).filter(Boolean) : [...values];
  return items.map(parseCard);
}

/** A position from explicit cards, as the Python `GripState.from_layout`: 24 piles
 *  (arrays of cards or one string "5S 8S"), each a valid chain, no aces; the cards need
 *  not be a full double deck. Rule 7 at once: each empty cell, in cell order, takes the
 *  stock's top card, or the talon's when the stock is empty; rule 10 then decides
 *  whether the deal is already over. Throws RangeError for a bad layout. */
/**
 * @param {Iterable<string | Iterable<unknown>>} grid
 * @param {string | Iterable<unknown>} [stock]
 * @param {string | Iterable<unknown>} [talon]
 * @param {number | null} [passes]
 * @param {number} [passesUsed]
 * @returns {GripState}
 */
export function fromLayout(grid, stock = [], talon = [], passes = null, passesUsed = 1) {
  const piles = [...grid].map(cardList);
  const stockL = cardList(stock);
  const talonL = cardList(talon);
  if (piles.length !== CELLS) throw new RangeError(`the grid has ${CELLS} cells, got ${piles.length}`);
  checkPasses(passes, passesUsed);
  for (const pile of piles) if (!isChain(pile)) throw new RangeError(`not a valid pile (rule 3): ${pile.join(' ')}`);
  for (const c of [...piles.flat(), ...stockL, ...talonL]) if (c[0] === 'A') throw new RangeError("Devil's Grip has no aces");
  for (const pile of piles) {
    if (pile.length === 0) {
      if (stockL.length) pile.push(/** @type {Card} */ (stockL.pop()));
      else if (talonL.length) pile.push(/** @type {Card} */ (talonL.pop()));
    }
  }
  const frozen = piles.map((p) => Object.freeze(p));
  return withEndDetected(makeState(frozen, stockL, talonL, passes, passesUsed, false));
}

/** Rule 9: the pass limit still allows at least one more redeal. */
/**
 * @param {GripState} state
 * @returns {boolean}
 */
export function mayRedealLater(state) {
  return state.passes_allowed === null || state.passes_used < state.passes_allowed;
}

/** Whether a redeal is legal right now: the stock empty, a talon to turn, a pass left. */
/**
 * @param {GripState} state
 * @returns {boolean}
 */
export function canRedeal(state) {
  return !state.ended && state.stock.length === 0 && state.talon.length > 0 && mayRedealLater(state);
}

/** Rule 11: the cards outside the grid (stock and talon); lower is better. */
/**
 * @param {GripState} state
 * @returns {number}
 */
export function score(state) {
  return state.stock.length + state.talon.length;
}

/** Every card is in the grid. */
/**
 * @param {GripState} state
 * @returns {boolean}
 */
export function won(state) {
  return state.stock.length === 0 && state.talon.length === 0;
}

/** Rule 11: "win" for 0, "brilliant" up to 2, "excellent" up to 5, "good" up to 10,
 *  null above. */
/**
 * @param {number} points
 * @returns {Rating | null}
 */
export function rating(points) {
  if (points <= 0) return 'win';
  if (points <= 2) return 'brilliant';
  if (points <= 5) return 'excellent';
  if (points <= 10) return 'good';
  return null;
}

/** Rule 10 exactly: the deal has been ended, or no card can ever enter the grid again. */
/**
 * @param {GripState} state
 * @returns {boolean}
 */
export function isOver(state) {
  return state.ended || stuck(state);
}

// ------------------------------------------------------------------------- rule 10

/** Every card the talon can show from here on by deals and redeals alone: its top now,
 *  every third card of the rest of this pass (and the last when the stock does not
 *  divide by three), and, if a redeal is allowed, one more pass over talon + the rest
 *  of the stock. Later passes turn the same sequence again, so they show nothing new. */
/**
 * @param {readonly Card[]} stock
 * @param {readonly Card[]} talon
 * @param {boolean} mayRedeal
 * @returns {Card[]}
 */
export function talonShowable(stock, talon, mayRedeal) {
  /** @type {Card[]} */
  const shown = [];
  if (talon.length) shown.push(talon[talon.length - 1]);
  const order = [...stock].reverse(); // turning order of the rest of this pass
  everyThird(order, shown);
  if (mayRedeal) everyThird(talon.concat(order), shown);
  return shown;
}

// The cards a pass over `seq` (in turning order) leaves on top of the talon.
/**
 * @param {readonly Card[]} seq
 * @param {Card[]} into
 */
function everyThird(seq, into) {
  for (let i = DRAW - 1; i < seq.length; i += DRAW) into.push(seq[i]);
  if (seq.length % DRAW) into.push(seq[seq.length - 1]);
}

// The card that would fit on `top`, as a card string, or null for J, Q, K.
/**
 * @param {Card} top
 * @returns {Card | null}
 */
function successor(top) {
  const r = RANK_OF[top[0]];
  return r <= 10 ? RANKS[r + 2] + top[1] : null;
}

/** No card can ever enter the grid again (the argument is in the Python engine's
 *  `GripState.is_over`): a card enters only from the talon onto a top, or into a cell
 *  emptied by moving a whole pile onto another top; part-pile moves and swaps change
 *  neither the tops that matter nor the bottoms. */
/**
 * @param {GripState} state
 * @returns {boolean}
 */
function stuck(state) {
  const { grid, stock, talon } = state;
  if (!stock.length && !talon.length) return true;
  /** @type {Set<Card>} */
  const wanted = new Set();
  for (const pile of grid) {
    if (pile.length) {
      const next = successor(pile[pile.length - 1]);
      if (next) wanted.add(next);
    }
  }
  if (!wanted.size) return true;
  // A pile's bottom never fits on its own top, so a bottom that is wanted can move.
  for (const pile of grid) if (pile.length && wanted.has(pile[0])) return false;
  for (const card of talonShowable(stock, talon, mayRedealLater(state))) if (wanted.has(card)) return false;
  return true;
}

// ------------------------------------------------------------------------- actions
// The JSON shapes are grip_action_to_json's, key order included:
//   {type: 'deal'} {type: 'redeal'} {type: 'talon', dst} {type: 'move', src, dst, count}
//   {type: 'swap', a, b} {type: 'end'}

/** @type {Readonly<Record<Action['type'], readonly string[]>>} */
const ACTION_FIELDS = Object.freeze({
  deal: [], redeal: [], talon: ['dst'], move: ['src', 'dst', 'count'], swap: ['a', 'b'], end: [],
});

/** A well-formed action object (its type known, exactly its fields, cells 0..23, count
 *  1..4, a move's count defaulting to 1), as the Python `grip_action_from_json` checks
 *  it; whether it is legal in a position is `apply`'s business. Throws IllegalAction. */
/**
 * @param {unknown} json
 * @returns {Action}
 */
export function parseAction(json) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new IllegalAction('an action must be a JSON object');
  const data = /** @type {Record<string, unknown>} */ (json);
  const kind = data.type;
  if (typeof kind !== 'string' || !Object.hasOwn(ACTION_FIELDS, kind)) throw new IllegalAction(`unknown action type: ${String(kind)}`);
  const names = ACTION_FIELDS[/** @type {Action['type']} */ (kind)];
  const extra = Object.keys(data).filter((k) => k !== 'type' && !names.includes(k)).sort();
  if (extra.length) throw new IllegalAction(`unexpected field(s) for '${kind}': ${extra.join(', ')}`);
  /** @type {Record<string, unknown>} */
  const out = { type: kind };
  for (const name of names) {
    if (!Object.hasOwn(data, name) && kind === 'move' && name === 'count') {
      out.count = 1;
      continue;
    }
    if (!Object.hasOwn(data, name)) throw new IllegalAction(`'${kind}' needs the field '${name}'`);
    const value = /** @type {number} */ (data[name]); // a number once past the next line
    if (!Number.isInteger(value)) throw new IllegalAction(`'${name}' must be an integer`);
    if (name === 'count' ? value < 1 || value > MAX_PILE : value < 0 || value >= CELLS) {
      throw new IllegalAction(name === 'count' ? `count must be 1..${MAX_PILE}` : `'${name}' must be a cell 0..${CELLS - 1}`);
    }
    out[name] = value;
  }
  // the type is known and every field of it checked just above
  return /** @type {Action} */ (out);
}

// The 276 swaps of a full grid, one shared frozen list: most positions have no empty
// cell, and building them anew for every legal list would be most of its cost.
const FULL_GRID_SWAPS = Object.freeze(swapsOf(() => true));

/**
 * @param {(cell: number) => boolean} occupied
 * @returns {SwapAction[]}
 */
function swapsOf(occupied) {
  /** @type {SwapAction[]} */
  const out = [];
  for (let a = 0; a < CELLS; a += 1) {
    for (let b = a + 1; b < CELLS; b += 1) if (occupied(a) || occupied(b)) out.push(Object.freeze({ type: 'swap', a, b }));
  }
  return out;
}

/** Every legal play, in the Python engine's order: deal or redeal, talon, moves, and
 *  the swaps (each pair once, a < b) unless `swaps: false`. Empty once the deal has
 *  ended. The end itself ({type: 'end'}) is always allowed while the deal goes on and
 *  is not listed. */
/**
 * @param {GripState} state
 * @param {{ swaps?: boolean }} [options]
 * @returns {Action[]}
 */
export function legalActions(state, { swaps = true } = {}) {
  if (state.ended) return [];
  const { grid, stock, talon } = state;
  /** @type {Action[]} */
  const out = [];
  if (stock.length) out.push({ type: 'deal' });
  else if (talon.length && mayRedealLater(state)) out.push({ type: 'redeal' });
  // The card each pile's top wants (rule 3), computed once: the scan below compares
  // every grid card with every top, and a string comparison is all that takes.
  /** @type {number[]} */
  const tops = [];
  /** @type {(Card | null)[]} */
  const wants = [];
  for (let i = 0; i < CELLS; i += 1) {
    if (grid[i].length) {
      tops.push(i);
      wants.push(successor(top(grid[i])));
    }
  }
  if (talon.length) {
    const t = talon[talon.length - 1];
    for (let k = 0; k < tops.length; k += 1) if (t === wants[k]) out.push({ type: 'talon', dst: tops[k] });
  }
  for (let src = 0; src < CELLS; src += 1) {
    const pile = grid[src];
    for (let count = 1; count <= pile.length; count += 1) {
      const card = pile[pile.length - count];
      for (let k = 0; k < tops.length; k += 1) {
        if (card === wants[k] && tops[k] !== src) out.push({ type: 'move', src, dst: tops[k], count });
      }
    }
  }
  if (swaps) {
    if (tops.length === CELLS) return out.concat(FULL_GRID_SWAPS);
    return out.concat(swapsOf((i) => grid[i].length > 0));
  }
  return out;
}

/**
 * @param {readonly Card[]} pile
 * @returns {Card}
 */
function top(pile) {
  return pile[pile.length - 1];
}

/** Play `action` (an action object) and return the new state; the given state is never
 *  changed. Throws GameOver once the deal has ended and IllegalAction for anything the
 *  rules forbid. When the play leaves no card able to enter (rule 10) the new state is
 *  ended, and a won deal has its rows arranged at once (rule 6). */
/**
 * @param {GripState} state
 * @param {Action} action checked again here (parseAction): it may come from anywhere
 * @returns {GripState}
 */
export function apply(state, action) {
  if (state.ended) throw new GameOver();
  const a = parseAction(action);
  if (a.type === 'end') return withEnded(state);
  // PLAYS[a.type] is the play of that very type, so it takes `a`
  const play = /** @type {(state: GripState, action: Action) => GripState} */ (PLAYS[a.type]);
  const next = play(state, a);
  if (!stuck(next)) return next;
  const over = withEnded(next);
  return won(over) ? arrangedIfPossible(over) : over;
}

const PLAYS = {
  deal: dealThree,
  redeal,
  talon: talonToGrid,
  move: gridToGrid,
  swap,
};

// Rule 8: up to three stock cards onto the talon, the last turned on top.
/**
 * @param {GripState} state
 * @returns {GripState}
 */
function dealThree(state) {
  const { stock, talon } = state;
  if (!stock.length) {
    if (talon.length && mayRedealLater(state)) throw new IllegalAction('the stock is empty: redeal the talon first');
    throw new IllegalAction('the stock is empty');
  }
  const n = Math.min(DRAW, stock.length);
  const turned = stock.slice(stock.length - n).reverse(); // turning order: the stock's top first
  return makeState(state.grid, stock.slice(0, stock.length - n), talon.concat(turned),
    state.passes_allowed, state.passes_used, false);
}

// Rule 9: the talon turned over, unshuffled, into the stock; a new pass begins.
/**
 * @param {GripState} state
 * @returns {GripState}
 */
function redeal(state) {
  if (state.stock.length) throw new IllegalAction('redeal only when the stock is empty');
  if (!state.talon.length) throw new IllegalAction('there is no talon to turn over');
  if (!mayRedealLater(state)) throw new IllegalAction(`no more redeals: ${state.passes_allowed} pass(es) allowed`);
  return makeState(state.grid, [...state.talon].reverse(), [], state.passes_allowed, state.passes_used + 1, false);
}

// Rules 3-4: the talon's top card onto a non-empty pile it fits.
/**
 * @param {GripState} state
 * @param {TalonAction} action
 * @returns {GripState}
 */
function talonToGrid(state, { dst }) {
  const { talon } = state;
  if (!talon.length) throw new IllegalAction('the talon is empty');
  const card = talon[talon.length - 1];
  const pile = state.grid[dst];
  if (!pile.length) throw new IllegalAction('a talon card never goes into an empty cell');
  if (!fits(card, top(pile))) throw new IllegalAction(`${card} does not go on ${top(pile)}`);
  const grid = [...state.grid];
  grid[dst] = Object.freeze(pile.concat([card]));
  return makeState(grid, state.stock, talon.slice(0, -1), state.passes_allowed, state.passes_used, false);
}

// Rule 4: the top `count` cards of `src` onto a non-empty pile, as one piece; rule 7
// refills an emptied cell from the stock or, that being empty, from the talon.
/**
 * @param {GripState} state
 * @param {MoveAction} action
 * @returns {GripState}
 */
function gridToGrid(state, { src, dst, count }) {
  if (src === dst) throw new IllegalAction('a pile cannot move onto itself');
  const pile = state.grid[src];
  if (!pile.length) throw new IllegalAction('that cell is empty');
  if (count > pile.length) throw new IllegalAction(`count must be 1..${pile.length} for that pile`);
  const target = state.grid[dst];
  if (!target.length) throw new IllegalAction('moving a pile into an empty cell is a swap');
  const run = pile.slice(pile.length - count);
  if (!fits(run[0], top(target))) throw new IllegalAction(`${run[0]} does not go on ${top(target)}`);
  const grid = [...state.grid];
  grid[dst] = Object.freeze(target.concat(run));
  grid[src] = Object.freeze(pile.slice(0, pile.length - count));
  let { stock, talon } = state;
  if (!grid[src].length) {
    if (stock.length) {
      grid[src] = Object.freeze([top(stock)]);
      stock = stock.slice(0, -1);
    } else if (talon.length) {
      grid[src] = Object.freeze([top(talon)]);
      talon = talon.slice(0, -1);
    }
  }
  return makeState(grid, stock, talon, state.passes_allowed, state.passes_used, false);
}

// Rule 5: two cells exchange their whole piles. An empty cell exists only when stock
// and talon are both empty (rule 7), so nothing needs refilling.
/**
 * @param {GripState} state
 * @param {SwapAction} action
 * @returns {GripState}
 */
function swap(state, { a, b }) {
  if (a === b) throw new IllegalAction('a cell cannot swap with itself');
  if (!state.grid[a].length && !state.grid[b].length) throw new IllegalAction('both cells are empty');
  const grid = [...state.grid];
  grid[a] = state.grid[b];
  grid[b] = state.grid[a];
  return makeState(grid, state.stock, state.talon, state.passes_allowed, state.passes_used, false);
}

// ------------------------------------------------------------------------- rule 6

/** Rule 6: a won deal with its rows arranged: 2-based piles (to J) on top, 3-based in
 *  the middle, 4-based at the bottom; within a row by suit S H D C, twins in their
 *  current cell order. Throws IllegalAction when the piles cannot fill the rows so. */
/**
 * @param {GripState} state
 * @returns {GripState}
 */
export function arranged(state) {
  /** @type {{ suit: number, i: number, pile: Pile }[][]} */
  const rows = [[], [], []];
  state.grid.forEach((pile, i) => {
    if (!pile.length) throw new IllegalAction('only a won deal is arranged');
    rows[chainOf(pile[0])].push({ suit: SUITS.indexOf(pile[0][1]), i, pile });
  });
  if (rows.some((r) => r.length !== COLS)) throw new IllegalAction('only a won deal is arranged');
  const grid = rows.flatMap((r) => r.sort((x, y) => x.suit - y.suit || x.i - y.i).map((x) => x.pile));
  return makeState(grid, state.stock, state.talon, state.passes_allowed, state.passes_used, state.ended);
}

// A made-up position (tests) may be won with piles that cannot fill the rows: the
// Python engine then leaves the grid as it is, and so does this.
/**
 * @param {GripState} state
 * @returns {GripState}
 */
function arrangedIfPossible(state) {
  try {
    return arranged(state);
  } catch (err) {
    if (err instanceof IllegalAction) return state;
    throw err;
  }
}
