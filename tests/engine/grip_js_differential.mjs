// The JavaScript half of tests/engine/test_grip_js_differential.py: plays the seeded
// games through static/grip/grip-rules.js exactly as grip_py_differential.py plays them
// through app.grip.rules, and reports what it saw. The two halves share nothing but this
// protocol, so each must be read beside the other: the game plan, the chooser and the
// step record below are the Python file's, line for line.
//
//   node grip_js_differential.mjs digest FIRST COUNT   one line per game:
//       "<game> <sha256 of its steps> <steps> <final score> <rating>"
//   node grip_js_differential.mjs trace GAME           one JSON line per step (for the
//       mismatch report: state, legal, over, score, probe, chosen).

import { createHash } from 'node:crypto';

import * as rules from '../../static/grip/grip-rules.js';

const PASSES = [1, 3, null];
const DEAL_TAG = 0x4752495044n; // "GRIPD": odd games deal from big 64-bit numbers
const CHOOSER_TAG = 0x4752495043n; // "GRIPC": the chooser's seed
const LAYOUT_TAG = 0x475249504Cn; // "GRIPL": an end-game layout's seed
// Three kinds of game, by (g // 3) % 30 (the Python file says why): END_GAME 23 in 30,
// BUILDER 6 in 30, DEALER 1 in 30.
const END_GAME = { kind: 'layout', cap: 20, buildSlots: 6 };
const BUILDER = { kind: 'deal', cap: 12, buildSlots: 10 };
const DEALER = { kind: 'deal', cap: 120, buildSlots: 2 };
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';

/** Canonical JSON: keys sorted, no spaces (Python: orjson with OPT_SORT_KEYS). */
export function canon(value) {
  if (Array.isArray(value)) {
    // A list of strings and numbers (a pile, the stock) is already canonical.
    if (value.every((x) => typeof x !== 'object' || x === null)) return JSON.stringify(value);
    return `[${value.map(canon).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// The canonical text of each action, remembered: an action list is mostly the same few
// hundred objects, and sorting their keys afresh every step would cost more than the
// rest of the step. A frozen object (the module shares its full-grid swaps) cannot
// change, so it is remembered by identity; any other by its whole plain JSON text, so
// nothing escapes the check.
const FROZEN_TEXT = new WeakMap();
const ACTION_TEXT = new Map();

function actionText(action) {
  if (Object.isFrozen(action)) {
    let text = FROZEN_TEXT.get(action);
    if (text === undefined) FROZEN_TEXT.set(action, (text = plainText(action)));
    return text;
  }
  return plainText(action);
}

function plainText(action) {
  const plain = JSON.stringify(action);
  let text = ACTION_TEXT.get(plain);
  if (text === undefined) {
    text = canon(action);
    ACTION_TEXT.set(plain, text);
  }
  return text;
}

// The action a canonical text stands for, parsed once: the chooser picks among texts.
const ACTION_OF = new Map();

function actionOf(text) {
  let action = ACTION_OF.get(text);
  if (action === undefined) ACTION_OF.set(text, (action = Object.freeze(JSON.parse(text))));
  return action;
}

/** Game `g`: its kind and start (a deal number, or an end-game layout), pass limit,
 *  step cap and how often it builds. */
export function gamePlan(g) {
  const slot = Math.floor(g / 3) % 30;
  const style = slot === 0 ? DEALER : slot <= 6 ? BUILDER : END_GAME;
  const passes = PASSES[g % 3];
  const plan = { passes, ...style };
  if (style === END_GAME) plan.layout = endGameLayout(g, passes);
  else plan.number = g % 2 === 0 ? BigInt(g) : rules.deriveSeed(DEAL_TAG, g);
  return plan;
}

/** A position near the end of a deal (the Python `end_game_layout`, draw for draw). */
export function endGameLayout(g, passes) {
  const rng = new rules.SplitMix64(rules.deriveSeed(LAYOUT_TAG, g));
  const piles = [];
  for (let deck = 0; deck < 2; deck += 1) {
    for (const suit of SUITS) {
      for (const base of [2, 3, 4]) piles.push([base, base + 3, base + 6, base + 9].map((r) => RANKS[r - 1] + suit));
    }
  }
  rng.shuffle(piles);
  const outside = [];
  const removals = 1 + rng.below(12);
  for (let k = 0; k < removals; k += 1) {
    const pile = piles[rng.below(24)];
    if (pile.length) outside.push(rng.below(3) ? pile.pop() : pile.shift());
  }
  for (let cell = 0; cell < 24; cell += 1) {
    if (!piles[cell].length && rng.below(2)) {
      const tall = [];
      for (let i = 0; i < 24; i += 1) if (piles[i].length >= 2) tall.push(i);
      if (tall.length) {
        const src = piles[tall[rng.below(tall.length)]];
        const cut = 1 + rng.below(src.length - 1);
        piles[cell] = src.splice(cut);
      }
    }
  }
  rng.shuffle(outside);
  const split = rng.below(outside.length + 1);
  const passesUsed = 1 + rng.below(passes !== null ? passes : 4);
  return { grid: piles, stock: outside.slice(split), talon: outside.slice(0, split), passesUsed };
}

/** Where a game starts: its deal, or its end-game layout. */
function startState(plan) {
  const lay = plan.layout;
  if (lay) return rules.fromLayout(lay.grid, lay.stock, lay.talon, plan.passes, lay.passesUsed);
  return rules.deal(plan.number, plan.passes);
}

// Every well-formed action but the end, sorted by canonical JSON: the probes are drawn
// from it, so apply's own checks (not just the legal list) are compared.
const UNIVERSE = (() => {
  const all = [{ type: 'deal' }, { type: 'redeal' }];
  for (let c = 0; c < rules.CELLS; c += 1) all.push({ type: 'talon', dst: c });
  for (let s = 0; s < rules.CELLS; s += 1) {
    for (let d = 0; d < rules.CELLS; d += 1) {
      if (s === d) continue;
      all.push({ type: 'swap', a: s, b: d });
      for (let n = 1; n <= rules.MAX_PILE; n += 1) all.push({ type: 'move', src: s, dst: d, count: n });
    }
  }
  return all.map(canon).sort().map((text) => JSON.parse(text));
})();

/** The chooser: a weighted pick from the legal list sorted by canonical JSON, so random
 *  play builds more than it swaps and games reach their ends. */
function choose(rng, legal, step, plan) {
  if (step >= plan.cap) return { type: 'end' };
  const roll = rng.below(1000);
  if (roll < 2) return { type: 'end' };
  const swaps = legal.filter((a) => a.type === 'swap');
  const builds = legal.filter((a) => a.type === 'talon' || a.type === 'move');
  const stock = legal.filter((a) => a.type === 'deal' || a.type === 'redeal');
  const slot = roll % 20;
  let pool;
  if (slot === 0 && swaps.length) pool = swaps;
  else if (slot <= plan.buildSlots && builds.length) pool = builds;
  else if (stock.length) pool = stock;
  else pool = builds.length ? builds : swaps;
  return pool.length ? pool[rng.below(pool.length)] : { type: 'end' };
}

function probe(state, action) {
  try {
    return `ok ${canon(rules.apply(state, action))}`;
  } catch (err) {
    if (err instanceof rules.IllegalAction) return 'illegal';
    throw err;
  }
}

/** Plays game `g`, calling `onStep` with each step's record; returns the final one. */
export function play(g, onStep) {
  const plan = gamePlan(g);
  const rng = new rules.SplitMix64(rules.deriveSeed(CHOOSER_TAG, g));
  let state = startState(plan);
  for (let step = 0; ; step += 1) {
    const legal = rules.legalActions(state).map(actionText).sort(); // code unit order, as Python's
    const over = rules.isOver(state);
    const record = { step, state: canon(state), legal, over, score: rules.score(state) };
    if (over) {
      record.rating = rules.rating(record.score);
      onStep(record);
      return { steps: step, score: record.score, rating: record.rating };
    }
    record.probe = probe(state, UNIVERSE[rng.below(UNIVERSE.length)]);
    const chosen = choose(rng, legal.map(actionOf), step, plan);
    record.chosen = actionText(chosen);
    onStep(record);
    state = rules.apply(state, chosen);
  }
}

/** The bytes a step adds to its game's digest (Python: `step_bytes`). */
function stepText(r) {
  const head = `${r.step}\n${r.state}\n${r.legal.join(',')}\n${r.over ? 1 : 0} ${r.score}\n`;
  return r.over ? `${head}end ${r.rating}\n` : `${head}${r.probe}\n${r.chosen}\n`;
}

function digestGames(first, count) {
  const lines = [];
  for (let g = first; g < first + count; g += 1) {
    const hash = createHash('sha256');
    let result;
    try {
      result = play(g, (r) => hash.update(stepText(r)));
      lines.push(`${g} ${hash.digest('hex')} ${result.steps} ${result.score} ${result.rating}`);
    } catch (err) {
      lines.push(`${g} error 0 0 ${JSON.stringify(String(err))}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function traceGame(g) {
  const out = [];
  try {
    play(g, (r) => out.push(JSON.stringify(r)));
  } catch (err) {
    out.push(JSON.stringify({ error: String(err && err.stack ? err.stack : err) }));
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'digest') digestGames(Number(args[0]), Number(args[1]));
else if (mode === 'trace') traceGame(Number(args[0]));
