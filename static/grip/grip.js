// Devil's Grip (solitaire) over HTTP: POST /api/grip starts a deal; every move, undo,
// redo, hint and "end" is a POST answered with the whole game. The moves offered are
// the game's `legal` list; nothing here knows the building rules. The deal's par comes
// from GET .../par (computed on the server, maybe for seconds), the reasons the deal
// ended from the game's `explain` numbers, and a certified deal's solution from
// GET .../solution as a list of views to step through.

import { h, toast, cssEscape } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { makeGhost, bindKeys } from '../cards/input.js';
import { createSelection } from '../cards/selection.js';
import { gripTargets, actionFor, stockAction, nextRun } from '../cards/targets.js';
import { getGripGame, setGripGame, getGripStats, recordGripResult, getPref, setPref } from '../common/storage.js';
import { COLS, CELLS, adopt as adoptAnswer, shownState, isFinished, resultOf, hintText } from './grip-model.js';
import { createReplay } from './grip-replay.js';
import { drawBar, createTop, drawGrid, drawStats, drawControls, drawReplay, drawSummary } from './grip-panels.js';
import { play } from '../common/sound.js';
import { errorText } from '../common/ui.js';
import { createGripGuide } from '../guide/guide.js';

export function mount(container) {
  let game = null; // the server's answer
  let token = null;
  let busy = false;
  let hint = null;
  let destroyed = false;
  let loadError = '';
  let summaryShownFor = null;
  let isDaily = false;
  let passes = getPref('gripPasses', null);
  if (![1, 3, null].includes(passes)) passes = null;
  let winnableOnly = getPref('gripWinnable', false) === true;
  let parWanted = null; // the game id whose par is being fetched
  let parFailed = false;
  const replayer = createReplay(() => render()); // a certified deal's solution being shown

  const bar = h('div', { class: 'grip-bar' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group', 'aria-label': t('grip.grid') });
  const summarySlot = h('div', { class: 'grip-summary-slot' });
  const controls = h('section', { class: 'panel grip-new', 'aria-labelledby': 'grip-new-title' });
  const stats = h('section', { class: 'panel grip-stats', 'aria-labelledby': 'grip-stats-title' });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'grip-board' }, grid);
  const el = h('div', { class: 'grip' }, h('h1', { class: 'sr-only', text: t('home.gripTitle') }), bar, summarySlot, top, board, h('div', { class: 'grip-side' }, controls, stats), live);
  container.append(el);

  const selection = createSelection(el, { pickOf, liftOf, targets: targetMap, commit, quick: () => false });
  const select = selection.select;
  const guide = createGripGuide(el, { ask: () => op('hint') }); // first-game guide (guide.js)
  const unbindKeys = bindKeys({
    d: deal, space: deal,
    t: () => { const s = selection.get(); select(s && s.src === 'talon' ? null : talonSel()); return true; },
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
  const st = () => shownState(game, replayer.current());
  const finished = () => isFinished(game, replayer.current());
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
    return gripTargets(legal(), s, s && s.src !== 'talon' ? pile(s.src).length : 0);
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
      replayer.stop();
      adopt(answer);
      play('draw');
    } catch (err) {
      busy = false;
      toast(errorText(err), 'warn');
      render();
    }
  }

  function solutionsSeen() { const seen = getPref('gripSolutionsSeen', []); return Array.isArray(seen) ? seen : []; }

  function adopt(answer) {
    if (destroyed) return;
    // A deal whose solution this browser saw is an aided game, however it was started (docs/rules.md).
    if (!answer.used_hint && solutionsSeen().includes(answer.number)) answer = { ...answer, used_hint: true };
    game = adoptAnswer(game, answer);
    hint = answer.hint || null;
    loadError = '';
    selection.clear();
    if (game.par === null && parWanted !== game.id) fetchPar(game.id);
    maybeRecord();
    render();
    guide.update(game);
  }

  // A finished deal counts in the statistics once, with its par when the server has it.
  function maybeRecord() {
    const result = replayer.current() ? null : resultOf(game);
    if (!result) return;
    if (result.par === null && !parFailed) return; // recorded when the par arrives
    recordGripResult(result);
  }

  async function fetchPar(id) {
    parWanted = id;
    parFailed = false;
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const answer = await api.gripPar(id, token);
        if (destroyed || !game || game.id !== id) return;
        game = { ...game, par: answer.par };
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
      // Aided from now on (the server marked it so), and so is this deal started again by number.
      game = { ...game, used_hint: true };
      setPref('gripSolutionsSeen', [answer.number, ...solutionsSeen().filter((n) => n !== answer.number)].slice(0, 200));
      replayer.start(answer);
      selection.clear();
      render();
    } catch (err) {
      busy = false;
      toast(errorText(err), 'warn');
      render();
    }
  }

  async function op(name, extra = {}, ghost = null, targetNode = null) {
    if (!game || busy || replayer.current()) { if (ghost) ghost.flyBack(); return false; }
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
        live.textContent = hint ? `${hintText(hint, t)} ${info ? t('grip.hintExpect', { n: Math.round(info.expected_score) }) : ''}` : t('grip.noHint');
        if (!hint) toast(t('grip.noHint'));
      } else if (name === 'action') {
        play(extra.action.type === 'deal' || extra.action.type === 'redeal' ? 'draw' : 'place');
      }
      if (!wasFinished && finished()) play(st().won ? 'win' : 'end');
      return true;
    } catch (err) {
      busy = false;
      el.classList.remove('busy');
      const held = selection.get();
      if (ghost) ghost.flyBack(held ? liftOf(held) : undefined);
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
    const action = actionFor(targetMap(s).get(key), how);
    if (!action) return false;
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
    const a = stockAction(legal(), 'deal', 'redeal');
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
    if (c === null) { selection.activate(a); return true; }
    if (selection.dropOn(`c:${c}`)) return true;
    select(finished() ? null : nextRun(selection.get(), c, pile(c).length));
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

  function moveFocus(delta) {
    const c = focusedCell();
    const next = c === null ? 0 : (c + delta + CELLS) % CELLS;
    const node = grid.querySelector(`[data-cell="${next}"]`);
    if (node) node.focus();
    return true;
  }

  // ---- drawing ---------------------------------------------------------------------
  const drawTop = createTop(top, { onDeal: deal });
  const on = {
    op: (name) => op(name),
    endDeal,
    newDeal,
    showSolution,
    setPasses: (value) => { passes = value; setPref('gripPasses', passes); },
    setWinnable: (checked) => { winnableOnly = checked; setPref('gripWinnable', winnableOnly); },
    winnableOnly: () => winnableOnly,
  };
  const replayOn = {
    prev: () => replayer.prev(),
    next: () => replayer.next(),
    play: () => replayer.toggle(),
    close: () => { replayer.stop(); render(); },
  };

  function render() {
    if (destroyed) return;
    const replay = replayer.current();
    const v = { game, state: st(), legal: legal(), busy, replay, finished: finished(), hint, isDaily, parFailed, loadError };
    el.classList.toggle('finished', v.finished);
    el.classList.toggle('won', Boolean(v.state && v.state.won));
    drawBar(bar, v, on);
    drawTop(v);
    drawGrid(grid, v);
    if (replay) {
      drawReplay(summarySlot, replay, replayOn);
    } else {
      const said = drawSummary(summarySlot, v, on);
      if (said && summaryShownFor !== game.id) {
        summaryShownFor = game.id;
        live.textContent = said;
      }
    }
    if (!controls.firstChild || controls.dataset.busy !== String(busy) || controls.dataset.lang !== t('lang.code')) {
      controls.dataset.busy = String(busy);
      controls.dataset.lang = t('lang.code');
      drawControls(controls, { busy, passes, winnableOnly }, on);
    }
    drawStats(stats, getGripStats());
    selection.repaint();
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
      replayer.pause();
      guide.destroy();
      selection.destroy();
      unbindKeys();
      el.remove();
    },
  };
}


