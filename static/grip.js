// Devil's Grip (solitaire) over HTTP: POST /api/grip starts a deal; every move, undo,
// redo, hint and "end" is a POST answered with the whole game. The moves offered are
// the game's `legal` list; nothing here knows the building rules. The deal's par comes
// from GET .../par (computed on the server, maybe for seconds), the reasons the deal
// ended from the game's `explain` numbers, and a certified deal's solution from
// GET .../solution as a list of views to step through.

import { h, replaceChildren, toast, cssEscape, icon } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { cardEl, backEl, slotEl, cardText } from './cards.js';
import { attachCardInput, makeGhost, bindKeys } from './input.js';
import { getGripGame, setGripGame, getGripStats, recordGripResult, getPref, setPref } from './storage.js';
import { explainText } from './grip-explain.js';
import { LIMITS, limitKey, summary } from './grip-stats.js';
import { play } from './sound.js';
import { errorText } from './ui.js';

const COLS = 8;
const ROW_GOALS = ['2 → J', '3 → Q', '4 → K'];

export function mount(container) {
  let game = null; // the server's answer
  let token = null;
  let sel = null; // {src: 'talon'} | {src: cell, count}
  let busy = false;
  let hint = null;
  let destroyed = false;
  let loadError = '';
  let summaryShownFor = null;
  let isDaily = false;
  let lastTalonCount = null;
  let passes = getPref('gripPasses', null);
  if (![1, 3, null].includes(passes)) passes = null;
  let winnableOnly = getPref('gripWinnable', false) === true;
  let parWanted = null; // the game id whose par is being fetched
  let parFailed = false;
  let replay = null; // {initial, steps, i, timer} while a solution is shown

  const bar = h('div', { class: 'grip-bar' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group', 'aria-label': t('grip.grid') });
  const summarySlot = h('div', { class: 'grip-summary-slot' });
  const controls = h('section', { class: 'panel grip-new', 'aria-labelledby': 'grip-new-title' });
  const stats = h('section', { class: 'panel grip-stats', 'aria-labelledby': 'grip-stats-title' });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'grip-board' }, grid);
  const el = h('div', { class: 'grip' }, bar, summarySlot, top, board, h('div', { class: 'grip-side' }, controls, stats), live);
  container.append(el);

  const input = attachCardInput(el, {
    pickOf,
    same: (a, b) => a && b && a.src === b.src && a.count === b.count,
    liftOf,
    targets: (s) => new Set(targetMap(s).keys()),
    commit,
    quick: () => false,
    selected: () => sel,
    select,
  });
  const unbindKeys = bindKeys({
    d: deal, space: deal,
    t: () => { select(sel && sel.src === 'talon' ? null : talonSel()); return true; },
    u: () => { op('undo'); return true; },
    r: () => { op('redo'); return true; },
    h: () => { op('hint'); return true; },
    e: () => { endDeal(); return true; },
    n: () => { newDeal({}); return true; },
    x: () => swapFocused(),
    Escape: () => { select(null); return true; },
    Enter: () => enterFocused(),
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => moveFocus(-COLS),
    ArrowDown: () => moveFocus(COLS),
  });

  // ---- state helpers ---------------------------------------------------------------
  const frame = () => (replay.i === 0 ? replay.initial : replay.steps[replay.i - 1].state);
  const st = () => (replay ? frame() : game ? game.state : null);
  const finished = () => Boolean(replay || (st() && (st().ended || st().over)));
  const legal = () => (game && !finished() ? game.legal || [] : []);
  const pile = (c) => (st() && st().grid[c]) || [];

  function talonSel() {
    return st() && st().talon && st().talon.length ? { src: 'talon' } : null;
  }

  function pickOf(node) {
    if (!game || busy || finished()) return null;
    const key = node.dataset.pick;
    if (key === 'talon') return talonSel();
    const m = /^c:(\d+):(\d+)$/.exec(key || '');
    if (!m) return null;
    const c = Number(m[1]);
    const j = Number(m[2]);
    const cards = pile(c);
    if (j >= cards.length) return null;
    return { src: c, count: cards.length - j };
  }

  function liftOf(s) {
    if (!s) return [];
    if (s.src === 'talon') return [...top.querySelectorAll('[data-pick="talon"]')];
    const cards = pile(s.src);
    const out = [];
    for (let j = cards.length - s.count; j < cards.length; j++) {
      const node = grid.querySelector(`[data-pick="c:${s.src}:${j}"]`);
      if (node) out.push(node);
    }
    return out;
  }

  // target key -> {build, swap} actions, from the legal list only
  function targetMap(s) {
    const map = new Map();
    if (!s) return map;
    const add = (cell, kind, action) => {
      const key = `c:${cell}`;
      const entry = map.get(key) || {};
      entry[kind] = action;
      map.set(key, entry);
    };
    for (const a of legal()) {
      if (s.src === 'talon') {
        if (a.type === 'talon') add(a.dst, 'build', a);
      } else if (a.type === 'move' && a.src === s.src && a.count === s.count) {
        add(a.dst, 'build', a);
      } else if (a.type === 'swap' && s.count === pile(s.src).length) {
        if (a.a === s.src) add(a.b, 'swap', a);
        else if (a.b === s.src) add(a.a, 'swap', a);
      }
    }
    return map;
  }

  function select(s) {
    sel = s;
    if (s) play('select');
    paintSelection();
  }

  function paintSelection() {
    el.querySelectorAll('.selected').forEach((n) => n.classList.remove('selected'));
    el.querySelectorAll('.legal-target, .swap-target').forEach((n) => n.classList.remove('legal-target', 'swap-target'));
    el.classList.toggle('holding', Boolean(sel));
    if (!sel) return;
    liftOf(sel).forEach((n) => n.classList.add('selected'));
    for (const [key, entry] of targetMap(sel)) {
      const node = grid.querySelector(`[data-target="${cssEscape(key)}"]`);
      if (node) node.classList.add(entry.build ? 'legal-target' : 'swap-target');
    }
  }

  // ---- talking to the server ---------------------------------------------------------
  async function load() {
    const saved = getGripGame();
    if (saved && saved.id && saved.token) {
      try {
        const answer = await api.getGrip(saved.id, saved.token);
        token = saved.token;
        isDaily = Boolean(saved.daily);
        adopt(answer);
        return;
      } catch (err) {
        if (err.status !== 404 && err.status !== 401 && err.status !== 403) {
          loadError = errorText(err);
          render();
          return;
        }
      }
    }
    await newDeal({});
  }

  async function newDeal({ number = null, daily = false }) {
    if (busy) return;
    busy = true;
    render();
    try {
      const winnable = winnableOnly && passes === null && number === null && !daily;
      const answer = await api.newGrip(winnable ? { winnable: true } : { number, daily, passes });
      token = answer.token;
      setGripGame({ id: answer.id, token: answer.token, daily });
      isDaily = daily;
      summaryShownFor = null;
      busy = false;
      stopReplay();
      adopt(answer);
      play('draw');
    } catch (err) {
      busy = false;
      toast(errorText(err), 'warn');
      render();
    }
  }

  function adopt(answer) {
    if (destroyed) return;
    if (game && answer.id === game.id && answer.par === null && game.par !== null) answer.par = game.par;
    game = answer;
    hint = answer.hint || null;
    loadError = '';
    sel = null;
    if (game.par === null && parWanted !== game.id) fetchPar(game.id);
    maybeRecord();
    render();
  }

  // A finished deal counts in the statistics once, with its par when the server has it.
  function maybeRecord() {
    if (!game || replay || !(game.state.ended || game.state.over)) return;
    if (game.par === null && !parFailed) return; // recorded when the par arrives
    const s = game.state;
    recordGripResult({ id: game.id, passes: s.passes_allowed ?? null, score: s.score, won: Boolean(s.won),
      assisted: Boolean(game.used_undo || game.used_hint), par: game.par });
  }

  async function fetchPar(id) {
    parWanted = id;
    parFailed = false;
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const answer = await api.gripPar(id, token);
        if (destroyed || !game || game.id !== id) return;
        game.par = answer.par;
        maybeRecord();
        render();
        return;
      } catch (err) {
        if (err.status !== 503 && err.status !== 429) break;
        await new Promise((resolve) => setTimeout(resolve, 2000 * (attempt + 1)));
        if (destroyed || !game || game.id !== id) return;
      }
    }
    if (game && game.id === id) { parFailed = true; maybeRecord(); render(); }
  }

  // ---- showing a certified solution --------------------------------------------------
  async function showSolution() {
    if (!game || busy) return;
    busy = true;
    render();
    try {
      const answer = await api.gripSolution(game.id, token);
      busy = false;
      replay = { initial: answer.initial, steps: answer.steps, i: 0, timer: null };
      sel = null;
      render();
    } catch (err) {
      busy = false;
      toast(errorText(err), 'warn');
      render();
    }
  }

  function stepTo(i) {
    if (!replay) return;
    replay.i = Math.max(0, Math.min(replay.steps.length, i));
    if (replay.i === replay.steps.length) pauseReplay();
    render();
  }

  function pauseReplay() {
    if (replay && replay.timer) { clearInterval(replay.timer); replay.timer = null; }
  }

  function playReplay() {
    if (!replay) return;
    if (replay.timer) { pauseReplay(); render(); return; }
    if (replay.i >= replay.steps.length) replay.i = 0;
    replay.timer = setInterval(() => stepTo(replay.i + 1), 600);
    render();
  }

  function stopReplay() {
    pauseReplay();
    replay = null;
  }

  async function op(name, extra = {}, ghost = null, targetNode = null) {
    if (!game || busy || replay) { if (ghost) ghost.flyBack(); return false; }
    if (name === 'undo' && !game.can_undo) return false;
    if (name === 'redo' && !game.can_redo) return false;
    if (name === 'hint' && finished()) return false;
    busy = true;
    el.classList.add('busy');
    if (ghost && targetNode) ghost.flyTo(targetNode.getBoundingClientRect());
    try {
      const answer = await api.gripOp(game.id, token, { op: name, ...extra });
      busy = false;
      el.classList.remove('busy');
      const wasFinished = finished();
      adopt(answer);
      if (ghost) ghost.remove();
      if (name === 'hint') {
        const info = game.hint_info;
        live.textContent = hint ? `${hintText(hint)} ${info ? t('grip.hintExpect', { n: Math.round(info.expected_score) }) : ''}` : t('grip.noHint');
        if (!hint) toast(t('grip.noHint'));
      } else if (name === 'action') {
        play(extra.action.type === 'deal' || extra.action.type === 'redeal' ? 'draw' : 'place');
      }
      if (!wasFinished && finished()) play(st().won ? 'win' : 'end');
      return true;
    } catch (err) {
      busy = false;
      el.classList.remove('busy');
      if (ghost) ghost.flyBack(sel ? liftOf(sel) : undefined);
      play('bad');
      toast(err.status === 409 ? t('grip.illegal', { reason: err.detail || '' })
        : err.status === 503 ? t('grip.busy') : errorText(err), 'warn');
      if (err.status === 404) { setGripGame(null); }
      render();
      return false;
    }
  }

  function act(action, ghost, targetNode) {
    return op('action', { action }, ghost, targetNode);
  }

  function commit(s, key, how = {}) {
    const entry = targetMap(s).get(key);
    if (!entry) return false;
    const action = how.shift && entry.swap ? entry.swap : entry.build || entry.swap;
    const node = grid.querySelector(`[data-target="${cssEscape(key)}"]`);
    let ghost = how.ghost;
    if (!ghost) {
      const lift = liftOf(s);
      if (lift.length) ghost = makeGhost(lift);
    }
    act(action, ghost, node);
    return true;
  }

  function deal() {
    const a = legal().find((x) => x.type === 'deal') || legal().find((x) => x.type === 'redeal');
    if (!a) return true;
    select(null);
    act(a);
    return true;
  }

  function endDeal() {
    if (!game || finished()) return;
    if (window.confirm(t('grip.endConfirm'))) op('end');
  }

  // keyboard
  function focusedCell() {
    const a = document.activeElement;
    return a && a.dataset && a.dataset.cell !== undefined ? Number(a.dataset.cell) : null;
  }

  function enterFocused() {
    const a = document.activeElement;
    if (!a || !el.contains(a)) return false;
    const c = focusedCell();
    if (c === null) { input.activate(a); return true; }
    if (sel && targetMap(sel).has(`c:${c}`)) {
      const s = sel;
      select(null);
      commit(s, `c:${c}`);
      return true;
    }
    const cards = pile(c);
    if (!cards.length || finished()) { select(null); return true; }
    if (sel && sel.src === c) select({ src: c, count: sel.count >= cards.length ? 1 : sel.count + 1 });
    else select({ src: c, count: 1 });
    return true;
  }

  function swapFocused() {
    const c = focusedCell();
    if (c === null || !sel) return false;
    const entry = targetMap(sel).get(`c:${c}`);
    if (!entry || !entry.swap) { toast(t('grip.noSwap')); return true; }
    const s = sel;
    select(null);
    commit(s, `c:${c}`, { shift: true });
    return true;
  }

  function moveFocus(delta) {
    const c = focusedCell();
    const next = c === null ? 0 : (c + delta + 24) % 24;
    const node = grid.querySelector(`[data-cell="${next}"]`);
    if (node) node.focus();
    return true;
  }

  function hintText(a) {
    switch (a.type) {
      case 'deal': return t('grip.hintDeal');
      case 'redeal': return t('grip.hintRedeal');
      case 'talon': return t('grip.hintTalon', { cell: cellName(a.dst) });
      case 'move': return t('grip.hintMove', { from: cellName(a.src), to: cellName(a.dst) });
      case 'swap': return t('grip.hintSwap', { from: cellName(a.a), to: cellName(a.b) });
      default: return '';
    }
  }

  function cellName(c) {
    return t('grip.cell', { row: Math.floor(c / COLS) + 1, col: (c % COLS) + 1 });
  }

  // ---- drawing ---------------------------------------------------------------------
  function ratingText(s) {
    if (s.rating === null || s.rating === undefined) return '';
    const key = `rating.${String(s.rating).toLowerCase()}`;
    const text = t(key);
    return text === key ? String(s.rating) : text;
  }

  function drawBar() {
    if (!game) { replaceChildren(bar, h('span', { class: 'loading', text: loadError || t('grip.loading') })); return; }
    const s = st();
    const passText = s.passes_allowed === null || s.passes_allowed === undefined
      ? t('grip.passesUnlimited', { used: s.passes_used ?? 0 })
      : t('grip.passes', { used: s.passes_used ?? 0, allowed: s.passes_allowed });
    const rating = ratingText(s);
    replaceChildren(bar,
      h('div', { class: 'grip-info' },
        h('span', { class: 'deal-no', text: isDaily ? t('grip.dailyNo', { n: game.number }) : t('grip.dealNo', { n: game.number }) }),
        h('span', { class: 'score', id: 'grip-score', 'aria-live': 'polite' },
          t('grip.score'), ' ', h('strong', { text: String(s.score) }),
          rating ? h('span', { class: `rating rating-${String(s.rating).toLowerCase()}`, text: rating }) : null),
        h('span', { class: 'passes', text: passText }),
        h('span', { class: 'par', id: 'grip-par', title: t('grip.parTitle'),
          text: game.par === null ? (parFailed ? '' : t('grip.parPending')) : t('grip.par', { n: game.par }) }),
        game.winnable ? h('span', { class: 'tag winnable', title: t('grip.winnableNote'), text: t('grip.winnableTag') }) : null,
        game.used_undo ? h('span', { class: 'tag', title: t('grip.undoNote'), text: t('grip.undoUsed') }) : null,
        game.used_hint ? h('span', { class: 'tag hint-tag', title: t('grip.hintNote'), text: t('grip.hintUsed') }) : null),
      h('div', { class: 'grip-buttons' },
        h('button', { type: 'button', id: 'grip-undo', class: 'secondary', disabled: !game.can_undo || busy || Boolean(replay),
          'aria-keyshortcuts': 'U', onclick: () => op('undo') }, icon('undo'), t('grip.undo')),
        h('button', { type: 'button', id: 'grip-redo', class: 'secondary', disabled: !game.can_redo || busy || Boolean(replay),
          'aria-keyshortcuts': 'R', onclick: () => op('redo') }, icon('redo'), t('grip.redo')),
        h('button', { type: 'button', id: 'grip-hint', class: 'secondary', disabled: finished() || busy,
          'aria-keyshortcuts': 'H', onclick: () => op('hint') }, t('grip.hint')),
        h('button', { type: 'button', id: 'grip-end', class: 'secondary', disabled: finished() || busy,
          'aria-keyshortcuts': 'E', onclick: endDeal }, t('grip.end'))));
  }

  function hintHas(kind, value) {
    if (!hint) return false;
    if (kind === 'stock') return hint.type === 'deal' || hint.type === 'redeal';
    if (kind === 'talon') return hint.type === 'talon';
    if (kind === 'src') return (hint.type === 'move' && hint.src === value) || (hint.type === 'swap' && hint.a === value);
    if (kind === 'dst') return ((hint.type === 'move' || hint.type === 'talon') && hint.dst === value) || (hint.type === 'swap' && hint.b === value);
    return false;
  }

  function drawTop() {
    if (!game) { replaceChildren(top); return; }
    const s = st();
    const canDeal = legal().some((a) => a.type === 'deal');
    const canRedeal = legal().some((a) => a.type === 'redeal');
    const stock = h('button', { type: 'button', class: `stock${hintHas('stock') ? ' hint' : ''}`, id: 'grip-stock',
      disabled: (!canDeal && !canRedeal) || busy, 'aria-keyshortcuts': 'D Space',
      'aria-label': canRedeal ? t('grip.redeal') : t('grip.dealLabel', { n: s.stock }), onclick: deal },
    s.stock ? backEl(0, { label: t('table.stockCount', { n: s.stock }) }) : slotEl(canRedeal ? '↺' : '', 'recycle'),
    h('span', { class: 'stock-count', text: String(s.stock) }));
    const talon = s.talon || [];
    const dealt = lastTalonCount !== null && (s.talon_count ?? 0) > lastTalonCount;
    lastTalonCount = s.talon_count ?? 0;
    const talonBox = h('div', { class: `talon fan-${talon.length}${hintHas('talon') ? ' hint' : ''}`, id: 'grip-talon',
      role: 'button', tabindex: '0', 'aria-keyshortcuts': 'T',
      'aria-label': talon.length ? t('grip.talonTop', { card: cardText(talon[talon.length - 1]), n: s.talon_count ?? talon.length }) : t('grip.talonEmpty') },
    talon.length ? talon.map((c, i) => {
      const node = cardEl(c, { extraClass: dealt ? 'dealt' : '' });
      node.style.setProperty('--i', i);
      if (i === talon.length - 1 && !finished()) node.dataset.pick = 'talon';
      return node;
    }) : slotEl());
    replaceChildren(top, h('div', { class: 'grip-piles' }, stock, talonBox,
      h('span', { class: 'talon-count', text: t('grip.talonCount', { n: s.talon_count ?? talon.length }) })));
  }

  function drawGrid() {
    if (!game) { replaceChildren(grid); return; }
    const s = st();
    const rows = [];
    for (let r = 0; r < 3; r++) {
      const cells = [];
      for (let col = 0; col < COLS; col++) {
        const c = r * COLS + col;
        const cards = s.grid[c] || [];
        const cls = ['cell'];
        if (hintHas('src', c)) cls.push('hint', 'hint-src');
        if (hintHas('dst', c)) cls.push('hint', 'hint-dst');
        const cell = h('div', { class: cls.join(' '), role: 'button', tabindex: '0',
          dataset: { target: `c:${c}`, focus: `cell-${c}`, cell: String(c) },
          'aria-label': `${cellName(c)}: ${cards.length ? cards.map(cardText).join(' ') : t('grip.emptyCell')}` });
        cell.style.setProperty('--n', Math.max(0, cards.length - 1));
        cards.forEach((card, j) => {
          const node = cardEl(card);
          node.style.setProperty('--j', j);
          if (!finished()) node.dataset.pick = `c:${c}:${j}`;
          cell.append(node);
        });
        if (!cards.length) cell.append(slotEl());
        cells.push(cell);
      }
      rows.push(h('div', { class: 'grip-row' }, h('span', { class: 'row-goal', 'aria-hidden': 'true', text: ROW_GOALS[r] }), cells));
    }
    replaceChildren(grid, rows);
  }

  function fmtAvg(x) { return x === null ? '—' : x.toFixed(1); }
  function fmtVsPar(x) { return x === null ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)}`; }

  // One table per kind of deal (clean, or with undo or hints); a row per pass limit played.
  function statsTable(all, kind, caption) {
    const rows = LIMITS.filter((k) => all.byLimit[k][kind].played > 0);
    if (!rows.length) return null;
    const head = ['stats.passLimit', 'stats.played', 'stats.won', 'stats.best', 'stats.average', 'stats.vsPar'];
    return h('table', { class: `stats-table stats-${kind}` },
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {}, head.map((key) => h('th', { scope: 'col', text: t(key) })))),
      h('tbody', {}, rows.map((k) => {
        const b = summary(all.byLimit[k][kind]);
        return h('tr', { dataset: { limit: k } },
          h('th', { scope: 'row', text: t(`stats.limit.${k}`) }),
          h('td', { text: String(b.played) }), h('td', { text: String(b.won) }),
          h('td', { text: b.best === null ? '—' : String(b.best) }),
          h('td', { text: fmtAvg(b.average) }), h('td', { text: fmtVsPar(b.vsPar) }));
      })));
  }

  function drawStats() {
    const all = getGripStats();
    const clean = statsTable(all, 'clean', t('stats.clean'));
    const assisted = statsTable(all, 'assisted', t('stats.assisted'));
    replaceChildren(stats,
      h('h2', { id: 'grip-stats-title', text: t('stats.title') }),
      h('div', { id: 'grip-stats' }, clean, assisted, !clean && !assisted ? h('p', { class: 'note', text: t('stats.none') }) : null));
  }

  function drawControls() {
    const passSelect = h('select', { id: 'grip-passes', onchange: (e) => {
      passes = e.target.value === '' ? null : Number(e.target.value);
      setPref('gripPasses', passes);
      winnableBox.disabled = passes !== null;
      winnableBox.checked = winnableOnly && passes === null;
    } }, [[1, t('grip.pass1')], [3, t('grip.pass3')], [null, t('grip.passUnlimited')]].map(([v, label]) =>
      h('option', { value: v === null ? '' : v, selected: v === passes }, label)));
    const winnableBox = h('input', { id: 'grip-winnable', type: 'checkbox', checked: winnableOnly && passes === null,
      disabled: passes !== null, onchange: (e) => { winnableOnly = e.target.checked; setPref('gripWinnable', winnableOnly); } });
    const numberInput = h('input', { id: 'grip-number', type: 'number', min: '0', step: '1', inputmode: 'numeric',
      placeholder: '42', 'aria-label': t('grip.dealNumber') });
    replaceChildren(controls,
      h('h2', { id: 'grip-new-title', text: t('grip.newTitle') }),
      h('label', { for: 'grip-passes' }, h('span', { text: t('grip.passLimit') }), passSelect),
      h('label', { for: 'grip-winnable', class: 'check', title: t('grip.winnableNote') }, winnableBox,
        h('span', { text: t('grip.winnableOnly') })),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'grip-new', disabled: busy, 'aria-keyshortcuts': 'N',
          onclick: () => newDeal({}) }, t('grip.newDeal')),
        h('button', { type: 'button', class: 'secondary', id: 'grip-daily', disabled: busy,
          onclick: () => newDeal({ daily: true }) }, t('grip.daily'))),
      h('form', { class: 'row by-number', onsubmit: (e) => {
        e.preventDefault();
        const n = Number(numberInput.value);
        if (!numberInput.value || !Number.isInteger(n) || n < 0) { toast(t('grip.numberNeeded')); return; }
        newDeal({ number: n });
      } }, h('label', { for: 'grip-number', class: 'sr-only', text: t('grip.dealNumber') }), numberInput,
      h('button', { type: 'submit', class: 'secondary', id: 'grip-by-number', disabled: busy }, t('grip.byNumber'))));
  }

  function drawReplay() {
    const n = replay.steps.length;
    const step = replay.i ? replay.steps[replay.i - 1].action : null;
    const panel = h('section', { class: 'panel grip-summary grip-replay', id: 'grip-replay', 'aria-labelledby': 'replay-title' },
      h('h2', { id: 'replay-title', text: t('grip.solutionTitle', { i: replay.i, n }) }),
      h('p', { class: 'note', id: 'replay-step', 'aria-live': 'polite', text: step ? stepText(step) : t('grip.solutionStart') }),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'secondary', id: 'replay-prev', disabled: replay.i === 0,
          onclick: () => { pauseReplay(); stepTo(replay.i - 1); } }, t('grip.solutionPrev')),
        h('button', { type: 'button', class: 'primary', id: 'replay-next', disabled: replay.i === n,
          onclick: () => { pauseReplay(); stepTo(replay.i + 1); } }, t('grip.solutionNext')),
        h('button', { type: 'button', class: 'secondary', id: 'replay-play', onclick: playReplay },
          replay.timer ? t('grip.solutionPause') : t('grip.solutionPlay')),
        h('button', { type: 'button', class: 'secondary', id: 'replay-close', onclick: () => { stopReplay(); render(); } },
          t('grip.solutionClose'))));
    replaceChildren(summarySlot, panel);
  }

  function stepText(a) {
    switch (a.type) {
      case 'deal': return t('grip.stepDeal');
      case 'redeal': return t('grip.stepRedeal');
      case 'talon': return t('grip.stepTalon', { cell: cellName(a.dst) });
      case 'move': return t('grip.stepMove', { from: cellName(a.src), to: cellName(a.dst) });
      case 'swap': return t('grip.stepSwap', { from: cellName(a.a), to: cellName(a.b) });
      default: return '';
    }
  }

  function drawSummary() {
    if (replay) { drawReplay(); return; }
    if (!game || !finished()) { replaceChildren(summarySlot); return; }
    const s = st();
    const rating = ratingText(s);
    const why = explainText(game.explain, t);
    const panel = h('section', { class: 'panel grip-summary', id: 'grip-summary', role: 'status', 'aria-labelledby': 'summary-title' },
      h('h2', { id: 'summary-title', text: s.won ? t('grip.wonTitle') : t('grip.overTitle') }),
      h('p', { class: 'summary-score' }, t('grip.finalScore', { n: s.score }), rating ? ` — ${rating}` : ''),
      h('p', { class: 'summary-par', id: 'summary-par', text: game.par === null
        ? t('grip.youNoPar', { score: s.score }) : t('grip.youVsPar', { score: s.score, par: game.par }) }),
      why ? h('p', { class: 'why', id: 'grip-why', text: why }) : null,
      h('p', { class: 'note', text: t('grip.scoreNote') }),
      game.used_undo ? h('p', { class: 'note', text: t('grip.undoNote') }) : null,
      game.used_hint ? h('p', { class: 'note', text: t('grip.hintNote') }) : null,
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'summary-new', onclick: () => newDeal({}) }, t('grip.newDeal')),
        h('button', { type: 'button', class: 'secondary', id: 'summary-replay', onclick: () => newDeal({ number: game.number }) },
          t('grip.replay', { n: game.number })),
        game.winnable ? h('button', { type: 'button', class: 'secondary', id: 'show-solution', disabled: busy,
          onclick: showSolution }, t('grip.showSolution')) : null,
        game.can_undo ? h('button', { type: 'button', class: 'secondary', onclick: () => op('undo') }, icon('undo'), t('grip.undo')) : null));
    replaceChildren(summarySlot, panel);
    if (summaryShownFor !== game.id) {
      summaryShownFor = game.id;
      live.textContent = `${s.won ? t('grip.wonTitle') : t('grip.overTitle')} ${t('grip.finalScore', { n: s.score })} ${why}`;
    }
  }

  function render() {
    if (destroyed) return;
    el.classList.toggle('finished', finished());
    el.classList.toggle('won', Boolean(st() && st().won));
    drawBar();
    drawTop();
    drawGrid();
    drawSummary();
    if (!controls.firstChild || controls.dataset.busy !== String(busy) || controls.dataset.lang !== t('lang.code')) {
      controls.dataset.busy = String(busy);
      controls.dataset.lang = t('lang.code');
      drawControls();
    }
    drawStats();
    if (sel && !liftOf(sel).length) sel = null;
    paintSelection();
  }

  render();
  load();

  return {
    rerender: () => { controls.dataset.lang = ''; render(); },
    title: () => `${t('home.gripTitle')} · ${t('app.title')}`,
    keys: () => [[t('keys.grip'), [
      [`D / ${t('keys.space')}`, t('keys.gripDeal')],
      ['T', t('keys.pickTalon')],
      ['← ↑ → ↓', t('keys.cellMove')],
      ['Enter', t('keys.gripEnter')],
      ['X', t('keys.swap')],
      ['U / R', t('keys.undoRedo')],
      ['H', t('keys.hint')],
      ['E', t('keys.endDeal')],
      ['N', t('keys.newDeal')],
      ['Esc', t('keys.drop')],
    ]]],
    destroy() {
      destroyed = true;
      pauseReplay();
      input.destroy();
      unbindKeys();
      el.remove();
    },
  };
}


