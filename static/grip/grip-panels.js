// The Devil's Grip page's panels, each drawn from a `view` of the page:
//   {game, state (on the board), legal, busy, replay, finished, hint, isDaily, parFailed,
//    loadError}
// and the handlers the page gives (`on`). Nothing here talks to the server.

import { h, replaceChildren, toast, icon } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { cardEl, backEl, slotEl, cardText, getLetters } from '../cards/cards.js';
import { rowGoals } from '../cards/card-letters.js';
import { explainText } from './grip-explain.js';
import { LIMITS, summary } from './grip-stats.js';
import { COLS, cellName, hintTouches, ratingText, stepText, fmtAvg, fmtVsPar } from './grip-model.js';

/** @typedef {import('./grip-model.js').GripPageView} GripPageView */
/** @typedef {import('./grip-model.js').GripView} GripView */
/** @typedef {import('./grip-model.js').SolutionReplay} SolutionReplay */
/** @typedef {import('./grip-rules.js').Card} Card */

/**
 * What the stock and talon are drawn from: the page's view, or any view with these
 * (the replay viewer's); `game` only says whether there is one.
 * @typedef {Pick<GripPageView, 'state' | 'legal' | 'busy' | 'hint' | 'finished'> & { game: object | null }} TopView
 */
/**
 * What the grid is drawn from.
 * @typedef {Pick<GripPageView, 'state' | 'hint' | 'moved' | 'finished'> & { game: object | null }} GridView
 */

/**
 * The page's handlers (grip.js `on`, which hands them to page/grip-session.js).
 * @typedef {{
 *   op: (name: 'undo' | 'redo' | 'hint') => unknown,
 *   finish: () => unknown,
 *   retry: () => unknown,
 *   endDeal: () => unknown,
 *   newDeal: (options: { daily?: boolean, number?: number | null }) => unknown,
 *   showSolution: () => unknown,
 *   setPasses: (value: number | null) => void,
 *   setWinnable: (checked: boolean) => void,
 *   winnableOnly: () => boolean,
 * }} PanelHandlers
 */

/**
 * The state on the board, once there is a game: the page's view has one with every game.
 * @param {{ state: GripView | null }} v
 * @returns {GripView}
 */
const stateOf = (v) => /** @type {GripView} */ (v.state);

// Deal number, score, passes, par and tags; undo, redo, hint, end and (when the rules
// prove the deal won from here) finish.
/**
 * @param {HTMLElement} el
 * @param {GripPageView} v
 * @param {Pick<PanelHandlers, 'op' | 'finish' | 'endDeal'>} on
 */
export function drawBar(el, v, on) {
  const { game, replay } = v;
  const busy = v.busy || v.finishing;
  if (!game) { replaceChildren(el, h('span', { class: 'loading', text: v.loadError || t('grip.loading') })); return; }
  const s = stateOf(v);
  const passText = s.passes_allowed === null || s.passes_allowed === undefined
    ? t('grip.passesUnlimited', { used: s.passes_used ?? 0 })
    : t('grip.passes', { used: s.passes_used ?? 0, allowed: s.passes_allowed });
  const rating = ratingText(s, t);
  replaceChildren(el,
    h('div', { class: 'grip-info' },
      h('span', { class: 'deal-no', text: v.isDaily ? t('grip.dailyNo', { n: game.number }) : t('grip.dealNo', { n: game.number }) }),
      h('span', { class: 'score', id: 'grip-score', 'aria-live': 'polite' },
        t('grip.score'), ' ', h('strong', { text: String(s.score) }),
        rating ? h('span', { class: `rating rating-${String(s.rating).toLowerCase()}`, text: rating }) : null),
      h('span', { class: 'passes', text: passText }),
      h('span', { class: 'par', id: 'grip-par', title: t('grip.parTitle'),
        text: game.par === null ? (v.parFailed ? '' : t('grip.parPending')) : t('grip.par', { n: game.par }) }),
      game.winnable ? h('span', { class: 'tag winnable', title: t('grip.winnableNote'), text: t('grip.winnableTag') }) : null,
      game.used_undo ? h('span', { class: 'tag', title: t('grip.undoNote'), text: t('grip.undoUsed') }) : null,
      game.used_hint ? h('span', { class: 'tag hint-tag', title: t('grip.hintNote'), text: t('grip.hintUsed') }) : null),
    h('div', { class: 'grip-buttons' },
      h('button', { type: 'button', id: 'grip-undo', class: 'secondary', disabled: !game.can_undo || busy || Boolean(replay),
        'aria-keyshortcuts': 'U', onclick: () => on.op('undo') }, icon('undo'), t('grip.undo')),
      h('button', { type: 'button', id: 'grip-redo', class: 'secondary', disabled: !game.can_redo || busy || Boolean(replay),
        'aria-keyshortcuts': 'R', onclick: () => on.op('redo') }, icon('redo'), t('grip.redo')),
      h('button', { type: 'button', id: 'grip-hint', class: 'secondary', disabled: v.finished || busy,
        'aria-busy': v.hintAsked ? 'true' : 'false', title: v.online ? '' : t('grip.waitsForConnection'),
        'aria-keyshortcuts': 'H', onclick: () => on.op('hint') }, v.hintAsked ? t('grip.hintAsking') : t('grip.hint')),
      v.finishLine ? h('button', { type: 'button', id: 'grip-finish', class: 'primary', disabled: busy,
        onclick: on.finish }, t('grip.finish')) : null,
      h('button', { type: 'button', id: 'grip-end', class: 'secondary', disabled: v.finished || busy,
        'aria-keyshortcuts': 'E', onclick: on.endDeal }, t('grip.end'))));
}

// Only the score and its rating, in place: most moves change nothing else in the bar.
/**
 * @param {HTMLElement} el
 * @param {Pick<GripPageView, 'state'>} v
 */
export function drawScore(el, v) {
  const scoreEl = el.querySelector('#grip-score');
  if (!scoreEl || !v.state) return;
  const rating = ratingText(v.state, t);
  replaceChildren(scoreEl, t('grip.score'), ' ', h('strong', { text: String(v.state.score) }),
    rating ? h('span', { class: `rating rating-${String(v.state.rating).toLowerCase()}`, text: rating }) : null);
}

// The line under the bar about the server: offline (moves kept, hints and par wait),
// a refusal (the board went back to the server's game, and why), a game the server no
// longer has, or a finished deal not yet checked by the server.
/**
 * @param {HTMLElement} el
 * @param {GripPageView} v
 * @param {Pick<PanelHandlers, 'retry'>} on
 */
export function drawSync(el, v, on) {
  const sync = v.sync;
  let words = '';
  let kind = '';
  if (sync && sync.kind === 'refused') { kind = 'refused'; words = t('grip.refused', { reason: sync.reason }); }
  else if (sync && sync.kind === 'lost') { kind = 'lost'; words = t('grip.lost'); }
  else if (!v.online) { kind = 'offline'; words = t('grip.offline'); }
  if (v.game && v.finished && !v.replay && !v.verified) {
    words = `${words} ${t('grip.unverified')}`.trim();
    kind = kind || 'unverified';
  }
  if (!words) { replaceChildren(el); return; }
  replaceChildren(el, h('p', { class: `grip-sync ${kind}`, id: 'grip-sync', role: 'status', dataset: { kind } },
    h('span', { text: words }),
    kind === 'offline' ? h('button', { type: 'button', class: 'secondary', id: 'grip-retry', onclick: on.retry }, t('grip.retry')) : null));
}

// The stock and the talon, drawn in place (the stock button stays the same element, so
// it keeps the keyboard focus across deals). Remembers the talon's size, so newly dealt
// cards fan in.
/**
 * @param {HTMLElement} el
 * @param {{ onDeal: () => unknown }} handlers
 * @returns {(v: TopView) => void}
 */
export function createTop(el, { onDeal }) {
  /** @type {number | null} */
  let lastTalonCount = null;
  /** @type {{ stock: HTMLButtonElement, count: HTMLSpanElement, talon: HTMLDivElement, talonCount: HTMLSpanElement } | null} */
  let parts = null; // built on the first draw of a game
  /** @type {string | null} */
  let faceKey = null;
  /** @type {string | null} */
  let talonKey = null;
  return function draw(v) {
    if (!v.game) { replaceChildren(el); parts = null; return; }
    const s = stateOf(v);
    const canDeal = v.legal.some((a) => a.type === 'deal');
    const canRedeal = v.legal.some((a) => a.type === 'redeal');
    if (!parts) {
      parts = { stock: h('button', { type: 'button', id: 'grip-stock', 'aria-keyshortcuts': 'D Space', onclick: onDeal }),
        count: h('span', { class: 'stock-count' }),
        talon: h('div', { id: 'grip-talon', role: 'button', tabindex: '0', 'aria-keyshortcuts': 'T' }),
        talonCount: h('span', { class: 'talon-count' }) };
      faceKey = null;
      talonKey = null;
      replaceChildren(el, h('div', { class: 'grip-piles' }, parts.stock, parts.talon, parts.talonCount));
    }
    const { stock, talon: talonBox } = parts;
    stock.className = `stock${hintTouches(v.hint, 'stock') ? ' hint' : ''}`;
    stock.disabled = (!canDeal && !canRedeal) || v.busy;
    stock.setAttribute('aria-label', canRedeal ? t('grip.redeal', { n: s.stock }) : t('grip.dealLabel', { n: s.stock }));
    const face = `${s.stock > 0} ${canRedeal} ${t('lang.code')}`;
    if (face !== faceKey) {
      faceKey = face;
      replaceChildren(stock, s.stock ? backEl(0, { label: t('table.stockCount', { n: s.stock }) }) : slotEl(canRedeal ? '↺' : '', 'recycle'),
        parts.count);
    } else if (s.stock) {
      // the card back drawn when the stock had cards, as now
      /** @type {Element} */ (stock.firstChild).setAttribute('aria-label', t('table.stockCount', { n: s.stock }));
    }
    parts.count.textContent = String(s.stock);
    const talon = s.talon || [];
    const count = s.talon_count ?? talon.length;
    const dealt = lastTalonCount !== null && (s.talon_count ?? 0) > lastTalonCount;
    lastTalonCount = s.talon_count ?? 0;
    talonBox.className = `talon fan-${talon.length}${hintTouches(v.hint, 'talon') ? ' hint' : ''}`;
    talonBox.setAttribute('aria-label', talon.length ? t('grip.talonTop', { card: cardText(talon[talon.length - 1]), n: count }) : t('grip.talonEmpty'));
    const cards = JSON.stringify([talon, count, Boolean(v.finished), getLetters()]);
    if (cards !== talonKey) {
      talonKey = cards;
      replaceChildren(talonBox, talon.length ? talon.map((c, i) => {
        const node = cardEl(c, { extraClass: dealt ? 'dealt' : '' });
        node.style.setProperty('--i', String(i));
        if (i === talon.length - 1 && !v.finished) node.dataset.pick = 'talon';
        return node;
      }) : slotEl());
    }
    parts.talonCount.textContent = t('grip.talonCount', { n: count });
  };
}

// The 3 × 8 grid, a row per building sequence. The rows and the 24 cells are built once;
// a draw then changes only the cells it is given (grip-diff.js says which), in place, so
// a move restyles one or two cells instead of the whole grid, and a focused cell keeps
// the focus.
/** What a cell's nodes show: its cards, and whether they can be picked. @typedef {{ cards: Card[], pickable: boolean }} CellShown */

/**
 * @param {HTMLElement} el
 * @returns {(v: GridView, changed: readonly number[]) => void}
 */
export function createGrid(el) {
  /** @type {HTMLDivElement[] | null} */
  let cells = null;
  /** @type {(CellShown | null)[]} */
  let shown = []; // per cell, the cards its nodes show and whether they can be picked
  /** @type {ReturnType<typeof getLetters> | null} */
  let letters = null;
  return function draw(v, changed) {
    if (!v.game) { replaceChildren(el); cells = null; return; }
    if (!cells || letters !== getLetters()) {
      letters = getLetters();
      cells = build(el);
      shown = cells.map(() => null);
      changed = cells.map((_, c) => c);
    }
    const drawnCells = cells;
    for (const c of changed) shown[c] = drawCell(drawnCells[c], c, v, shown[c]);
  };
}

/**
 * @param {HTMLElement} el
 * @returns {HTMLDivElement[]}
 */
function build(el) {
  /** @type {HTMLDivElement[]} */
  const cells = [];
  /** @type {HTMLDivElement[]} */
  const rows = [];
  const goals = rowGoals(getLetters()); // "2 → J", in the card letters chosen
  for (let r = 0; r < 3; r++) {
    /** @type {HTMLDivElement[]} */
    const row = [];
    for (let col = 0; col < COLS; col++) {
      const c = r * COLS + col;
      const cell = h('div', { class: 'cell', role: 'button', tabindex: '0',
        dataset: { target: `c:${c}`, focus: `cell-${c}`, cell: String(c) } });
      row.push(cell);
      cells.push(cell);
    }
    rows.push(h('div', { class: 'grip-row' }, h('span', { class: 'row-goal', 'aria-hidden': 'true', text: goals[r] }), row));
  }
  replaceChildren(el, rows);
  return cells;
}

/** @type {(longer: readonly Card[], shorter: readonly Card[]) => boolean} */
const startsWith = (longer, shorter) => shorter.length <= longer.length && shorter.every((card, j) => longer[j] === card);

// One cell. Its card nodes change as little as the move did: a card built onto the pile
// is appended, a run moved away is removed from the end; only a pile replaced (a refill,
// a swap) is drawn afresh. Returns what the cell now shows, for the next draw.
/**
 * @param {HTMLDivElement} cell
 * @param {number} c
 * @param {GridView} v
 * @param {CellShown | null} before
 * @returns {CellShown}
 */
function drawCell(cell, c, v, before) {
  const cards = stateOf(v).grid[c] || [];
  const pickable = !v.finished;
  const cls = ['cell'];
  if (hintTouches(v.hint, 'src', c)) cls.push('hint', 'hint-src');
  if (hintTouches(v.hint, 'dst', c)) cls.push('hint', 'hint-dst');
  // a solution shown step by step: where the last step's card went, and came from
  if (hintTouches(v.moved, 'dst', c)) cls.push('replay-moved');
  if (hintTouches(v.moved, 'src', c)) cls.push('replay-from');
  const className = cls.join(' ');
  if (cell.className !== className) cell.className = className;
  cell.setAttribute('aria-label', `${cellName(c, t)}: ${cards.length ? cards.map(cardText).join(' ') : t('grip.emptyCell')}`);
  cell.style.setProperty('--n', String(Math.max(0, cards.length - 1)));
  /** @type {(card: Card, j: number) => HTMLElement} */
  const node = (card, j) => {
    const n = cardEl(card);
    n.style.setProperty('--j', String(j));
    if (pickable) n.dataset.pick = `c:${c}:${j}`;
    return n;
  };
  const old = before && before.pickable === pickable ? before.cards : null;
  if (old && old.length && cards.length && startsWith(cards, old)) {
    for (let j = old.length; j < cards.length; j++) cell.append(node(cards[j], j));
  } else if (old && cards.length && startsWith(old, cards)) {
    // the cell shows old.length card nodes, one per card
    for (let j = cards.length; j < old.length; j++) /** @type {Element} */ (cell.lastElementChild).remove();
  } else {
    replaceChildren(cell, cards.length ? cards.map(node) : slotEl());
  }
  return { cards: [...cards], pickable };
}

// One table per kind of deal (clean, or with undo or hints): a column per pass limit
// played, a row per figure. Figures down the side, not across: six columns did not fit
// the 330 px side column of a laptop in every language (the last ones scrolled out of
// sight in Russian), and the figures' names are the long words, which a row has room for.
/** @type {[string, string][]} each figure's key (data-stat) and its name's */
const FIGURES = [['played', 'stats.played'], ['won', 'stats.won'], ['best', 'stats.best'], ['average', 'stats.average'],
  ['vsPar', 'stats.vsPar']];

/**
 * @param {import('./grip-stats.js').GripStats} all
 * @param {import('./grip-stats.js').DealKind} kind
 * @param {string} caption
 */
function statsTable(all, kind, caption) {
  const limits = LIMITS.filter((k) => all.byLimit[k][kind].played > 0);
  if (!limits.length) return null;
  const sums = limits.map((k) => summary(all.byLimit[k][kind]));
  /** @type {Record<string, (b: ReturnType<typeof summary>) => string>} */
  const text = {
    played: (b) => String(b.played),
    won: (b) => String(b.won),
    best: (b) => (b.best === null ? '—' : String(b.best)),
    average: (b) => fmtAvg(b.average),
    vsPar: (b) => fmtVsPar(b.vsPar),
  };
  return h('table', { class: `stats-table stats-${kind}` },
    h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('stats.passLimit') }),
      limits.map((k) => h('th', { scope: 'col', dataset: { limit: k }, text: t(`stats.limit.${k}`) })))),
    h('tbody', {}, FIGURES.map(([key, name]) => h('tr', { dataset: { stat: key } },
      h('th', { scope: 'row', text: t(name) }),
      sums.map((b, i) => h('td', { dataset: { limit: limits[i] }, text: text[key](b) }))))));
}

/**
 * @param {HTMLElement} el
 * @param {import('./grip-stats.js').GripStats} all
 */
export function drawStats(el, all) {
  const clean = statsTable(all, 'clean', t('stats.clean'));
  const assisted = statsTable(all, 'assisted', t('stats.assisted'));
  replaceChildren(el,
    h('h2', { id: 'grip-stats-title', text: t('stats.title') }),
    h('div', { id: 'grip-stats' }, clean, assisted, !clean && !assisted ? h('p', { class: 'note', text: t('stats.none') }) : null));
}

// A new deal: pass limit, "only deals that can be won", new, daily, by number.
/**
 * @param {HTMLElement} el
 * @param {{ busy: boolean, passes: number | null, winnableOnly: boolean }} now
 * @param {Pick<PanelHandlers, 'setPasses' | 'setWinnable' | 'winnableOnly' | 'newDeal'>} on
 */
export function drawControls(el, { busy, passes, winnableOnly }, on) {
  const passSelect = h('select', { id: 'grip-passes', onchange: (e) => {
    const chosen = e.currentTarget.value === '' ? null : Number(e.currentTarget.value);
    on.setPasses(chosen);
    winnableBox.disabled = chosen !== null;
    winnableBox.checked = on.winnableOnly() && chosen === null;
  } }, /** @type {[number | null, string][]} */ ([[1, t('grip.pass1')], [3, t('grip.pass3')], [null, t('grip.passUnlimited')]]).map(([value, label]) =>
    h('option', { value: value === null ? '' : value, selected: value === passes }, label)));
  const winnableBox = h('input', { id: 'grip-winnable', type: 'checkbox', checked: winnableOnly && passes === null,
    disabled: passes !== null, onchange: (e) => on.setWinnable(e.currentTarget.checked) });
  const numberInput = h('input', { id: 'grip-number', type: 'number', min: '0', step: '1', inputmode: 'numeric',
    placeholder: '42', 'aria-label': t('grip.dealNumber') });
  replaceChildren(el,
    h('h2', { id: 'grip-new-title', text: t('grip.newTitle') }),
    h('label', { for: 'grip-passes' }, h('span', { text: t('grip.passLimit') }), passSelect),
    h('label', { for: 'grip-winnable', class: 'check', title: t('grip.winnableNote') }, winnableBox,
      h('span', { text: t('grip.winnableOnly') })),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', id: 'grip-new', disabled: busy, 'aria-keyshortcuts': 'N',
        onclick: () => on.newDeal({}) }, t('grip.newDeal')),
      h('button', { type: 'button', class: 'secondary', id: 'grip-daily', disabled: busy,
        onclick: () => on.newDeal({ daily: true }) }, t('grip.daily'))),
    h('form', { class: 'row by-number', onsubmit: (e) => {
      e.preventDefault();
      const n = Number(numberInput.value);
      if (!numberInput.value || !Number.isInteger(n) || n < 0) { toast(t('grip.numberNeeded')); return; }
      on.newDeal({ number: n });
    } }, h('label', { for: 'grip-number', class: 'sr-only', text: t('grip.dealNumber') }), numberInput,
    h('button', { type: 'submit', class: 'secondary', id: 'grip-by-number', disabled: busy }, t('grip.byNumber'))));
}

// Stepping through a certified deal's solution.
/**
 * @param {HTMLElement} el
 * @param {SolutionReplay} replay
 * @param {{ prev: () => void, next: () => void, play: () => void, close: () => void }} on
 */
export function drawReplay(el, replay, on) {
  const n = replay.steps.length;
  const step = replay.i ? replay.steps[replay.i - 1].action : null;
  replaceChildren(el, h('section', { class: 'panel grip-summary grip-replay', id: 'grip-replay', 'aria-labelledby': 'replay-title' },
    h('h2', { id: 'replay-title', text: t('grip.solutionTitle', { i: replay.i, n }) }),
    h('p', { class: 'note', id: 'replay-step', 'aria-live': 'polite', text: step ? stepText(step, t) : t('grip.solutionStart') }),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'replay-prev', disabled: replay.i === 0,
        onclick: on.prev }, t('grip.solutionPrev')),
      h('button', { type: 'button', class: 'primary', id: 'replay-next', disabled: replay.i === n,
        onclick: on.next }, t('grip.solutionNext')),
      h('button', { type: 'button', class: 'secondary', id: 'replay-play', onclick: on.play },
        replay.timer ? t('grip.solutionPause') : t('grip.solutionPlay')),
      h('button', { type: 'button', class: 'secondary', id: 'replay-close', onclick: on.close },
        t('grip.solutionClose')))));
}

// The end of a deal: score, par, why it ended, and what next. Returns what a screen
// reader is told, or '' when there is no summary.
/**
 * @param {HTMLElement} el
 * @param {GripPageView} v
 * @param {Pick<PanelHandlers, 'newDeal' | 'showSolution' | 'op'>} on
 * @returns {string}
 */
export function drawSummary(el, v, on) {
  const { game } = v;
  if (!game || !v.finished) { replaceChildren(el); return ''; }
  const s = stateOf(v);
  const rating = ratingText(s, t);
  const why = explainText(game.explain, t);
  replaceChildren(el, h('section', { class: 'panel grip-summary', id: 'grip-summary', role: 'status', 'aria-labelledby': 'summary-title' },
    h('h2', { id: 'summary-title', text: s.won ? t('grip.wonTitle') : t('grip.overTitle') }),
    h('p', { class: 'summary-score' }, t('grip.finalScore', { n: s.score }), rating ? ` — ${rating}` : ''),
    h('p', { class: 'summary-par', id: 'summary-par', text: game.par === null
      ? t('grip.youNoPar', { score: s.score }) : t('grip.youVsPar', { score: s.score, par: game.par }) }),
    why ? h('p', { class: 'why', id: 'grip-why', text: why }) : null,
    h('p', { class: 'note', text: t('grip.scoreNote') }),
    game.used_undo ? h('p', { class: 'note', text: t('grip.undoNote') }) : null,
    game.used_hint ? h('p', { class: 'note', text: t('grip.hintNote') }) : null,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', id: 'summary-new', onclick: () => on.newDeal({}) }, t('grip.newDeal')),
      h('button', { type: 'button', class: 'secondary', id: 'summary-replay', onclick: () => on.newDeal({ number: game.number }) },
        t('grip.replay', { n: game.number })),
      game.winnable ? h('button', { type: 'button', class: 'secondary', id: 'show-solution', disabled: v.busy,
        onclick: on.showSolution }, t('grip.showSolution')) : null,
      game.can_undo ? h('button', { type: 'button', class: 'secondary', onclick: () => on.op('undo') }, icon('undo'), t('grip.undo')) : null)));
  return `${s.won ? t('grip.wonTitle') : t('grip.overTitle')} ${t('grip.finalScore', { n: s.score })} ${why}`;
}
