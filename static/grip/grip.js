// Devil's Grip, played on the page (issue 24): every move, undo and redo is applied here
// at once with the rules in grip-rules.js (grip-local.js keeps the history), in the same
// frame as the input, online or not; grip-link.js sends the operations to the server in
// order, in batches, and the server replays them with its engine. The server stays the
// authority: a batch it refuses, or a record that differs from the page's, puts the page
// back on the server's game with the reason shown. A deal can be started and played to
// the end with no connection (the deal comes from its number); it is sent, and so
// verified, when the server is reachable again, and counts in the statistics only then.
// Hints, par, "only deals that can be won" and a certified deal's solution come from the
// server (its search sees only the player's view) and wait for the connection. When the
// player knows the stock's order and the rules can prove the deal won from here
// (grip-finish.js), the page offers to finish it and plays the remaining moves.

import { h, toast, cssEscape } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { bindKeys } from '../cards/input.js';
import { createSelection } from '../cards/selection.js';
import { gripTargets, actionFor, stockAction, nextRun } from '../cards/targets.js';
import { getGripGame, setGripGame, getGripStats, recordGripResult, getPref, setPref, listGripPlayed } from '../common/storage.js';
import { COLS, CELLS, shownState, isFinished, resultOf, hintText } from './grip-model.js';
import { newGame, fromRecord, play as playOp, recordOf, sameRecord, viewOf, current, answerOf,
  todaysDailyNumber, randomDealNumber } from './grip-local.js';
import { createLink } from './grip-link.js';
import { winningLine } from './grip-finish.js';
import { createReplay } from './grip-replay.js';
import { drawBar, drawScore, createTop, createGrid, drawStats, drawControls, drawReplay, drawSummary, drawSync } from './grip-panels.js';
import { drawKeys, changes } from './grip-diff.js';
import { drawRecent } from './grip-recent.js';
import { play } from '../common/sound.js';
import { errorText } from '../common/ui.js';
import { createGripGuide } from '../guide/guide.js';

// The server's default hint budget per game is 4 a second (DEMON_GRIP_SEARCH_RATE_PER_S).
const HINT_SPACING_MS = 250;

const FINISH_CHECK_MS = 350; // the proof runs once the player pauses this long
const FINISH_MAX_SCORE = 24; // and only near the end, where it is quick and likely
const FINISH_STEP_MS = 220; // auto-finish: one move shown every this long

export function mount(container, { navigate } = {}) {
  let local = null; // the game as played on this page (grip-local.js)
  let meta = {}; // what only the server knows: par, hint, used_hint, winnable, explain
  let game = null; // answerOf(local, meta): what the panels draw
  let busy = false; // waiting for a winnable deal or a solution (never for a move)
  let hintAsked = null; // the local game a hint was asked for
  let lastHintAt = -Infinity; // when the last hint request left (performance.now())
  let destroyed = false;
  let loadError = '';
  let summaryShownFor = null;
  let isDaily = false;
  let passes = getPref('gripPasses', null);
  if (![1, 3, null].includes(passes)) passes = null;
  let winnableOnly = getPref('gripWinnable', false) === true;
  let parWanted = null; // the game id whose par is being fetched
  let parFailed = false;
  let sync = null; // what the sync line says: {kind: 'offline' | 'refused' | 'lost', reason}
  let finishLine = null; // a proven winning line from the current position
  let finishTimer = null;
  let finishing = null; // the auto-finish's timer while it plays
  let statsDrawn = null; // the language the statistics panel was last drawn in
  let recentFor; // the game followed when the recent games were last drawn
  const replayer = createReplay(() => render()); // a certified deal's solution being shown

  const bar = h('div', { class: 'grip-bar' });
  const syncLine = h('div', { class: 'grip-sync-slot' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group', 'aria-label': t('grip.grid') });
  const summarySlot = h('div', { class: 'grip-summary-slot' });
  const controls = h('section', { class: 'panel grip-new', 'aria-labelledby': 'grip-new-title' });
  const stats = h('section', { class: 'panel grip-stats', 'aria-labelledby': 'grip-stats-title' });
  const recent = h('section', { class: 'panel grip-recent', 'aria-labelledby': 'grip-recent-title', hidden: true }); // issue 29
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'grip-board' }, grid);
  const summaryArea = h('div', { class: 'grip-summary-area' }, syncLine, summarySlot);
  const el = h('div', { class: 'grip' }, h('h1', { class: 'sr-only', text: t('home.gripTitle') }), bar, summaryArea, top, board, h('div', { class: 'grip-side' }, controls, stats, recent), live);
  container.append(el);

  const link = createLink({ save: (saved) => setGripGame(saved), on: {
    acked, refused, lost, created, reachable,
    matches: (server, ops) => matchesAfter(server, ops),
  } });
  const selection = createSelection(el, { pickOf, liftOf, targets: targetMap, commit, quick: () => false });
  const select = selection.select;
  const guide = createGripGuide(el, { ask: () => askHint() }); // first-game guide (guide.js)
  const unbindKeys = bindKeys({
    d: deal, space: deal,
    t: () => { const s = selection.get(); select(s && s.src === 'talon' ? null : talonSel()); return true; },
    u: () => { op({ op: 'undo' }); return true; },
    r: () => { op({ op: 'redo' }); return true; },
    h: () => { askHint(); return true; },
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
  const legal = () => (game && !finished() && !finishing ? game.legal || [] : []);
  const pile = (c) => (st() && st().grid[c]) || [];
  const saved = () => link.current();
  // The server has every operation of this game (and so has checked them).
  const verified = () => Boolean(saved() && saved().id && !saved().pending.length);

  function talonSel() {
    return st() && st().talon && st().talon.length ? { src: 'talon' } : null;
  }

  function pickOf(node) {
    if (!game || finished() || finishing) return null;
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

  // ---- the game on the page ------------------------------------------------------------
  // Shows `next` (a local game): the view the panels draw, the guide, the sync line.
  function show(next) {
    local = next;
    game = answerOf(local, { ...meta, id: saved() ? saved().id : null });
    selection.clear();
    maybeRecord();
    render();
    guide.update(game);
    scheduleFinishCheck();
  }

  // Plays one operation at once and queues it for the server. Returns whether it was legal.
  function op(operation) {
    if (!local || replayer.current() || (finishing && operation.fromFinish !== true)) return false;
    const { fromFinish, ...wire } = operation;
    let next;
    try {
      next = playOp(local, wire);
    } catch (err) {
      if (err && err.code) { play('bad'); toast(t('grip.illegal', { reason: err.message }), 'warn'); return false; }
      throw err;
    }
    meta = { ...meta, hint: null, hint_info: null, explain: null };
    hintAsked = null;
    const wasFinished = finished();
    show(next);
    link.push(wire);
    if (wire.op === 'action') play(wire.action.type === 'deal' || wire.action.type === 'redeal' ? 'draw' : 'place');
    if (!wasFinished && finished()) play(st().won ? 'win' : 'end');
    return true;
  }

  // A game to follow: its saved form (grip-link.js) and the local game rebuilt from it.
  function follow(record, extra) {
    const savedGame = { id: null, token: null, daily: false, seq: 0, pending: [], meta: {}, ...extra,
      number: record.number, passes: record.passes, acked: record };
    isDaily = Boolean(savedGame.daily);
    meta = savedGame.meta || {};
    if (solutionsSeen().includes(record.number)) meta = { ...meta, used_hint: true };
    summaryShownFor = null;
    parFailed = false;
    stopFinishing();
    replayer.stop();
    let next = fromRecord(record);
    for (const pending of savedGame.pending) {
      try { next = playOp(next, pending); } catch { savedGame.pending = []; break; } // cannot be: they were played
    }
    link.follow(savedGame);
    show(next);
    if (savedGame.id && meta.par == null) fetchPar(savedGame.id);
  }

  function keepMeta(answer) {
    // A deal whose solution this browser saw is an aided game, however it was started (docs/rules.md).
    const aided = Boolean(answer.used_hint) || solutionsSeen().includes(answer.number);
    meta = { ...meta, used_hint: aided, winnable: answer.winnable,
      par: answer.par ?? meta.par ?? null, explain: answer.explain ?? null };
    if (saved()) saved().meta = { used_hint: meta.used_hint, winnable: meta.winnable, par: meta.par };
  }

  // ---- what the server says ---------------------------------------------------------
  function created(answer) {
    keepMeta(answer);
    game = answerOf(local, { ...meta, id: answer.id });
    if (meta.par == null) fetchPar(answer.id);
    render();
  }

  // A batch replayed. With nothing left to send, the server's game must be the page's.
  function acked(answer) {
    if (destroyed) return;
    keepMeta(answer);
    if (!saved().pending.length) {
      const same = sameRecord(recordOf(local), { number: answer.number, passes: answer.passes, actions: answer.actions,
        redo: answer.redo, used_undo: answer.used_undo })
        && JSON.stringify(viewOf(current(local))) === JSON.stringify(answer.state);
      if (!same) { refused(answer, t('grip.differs')); return; }
    }
    if (sync && sync.kind === 'offline') sync = null;
    game = answerOf(local, { ...meta, id: saved().id });
    maybeRecord();
    render();
  }

  // The server refused a batch (or its game is not the page's): back to the server's.
  function refused(answer, reason) {
    if (destroyed) return;
    stopFinishing();
    keepMeta(answer);
    sync = { kind: 'refused', reason };
    play('bad');
    toast(t('grip.refused', { reason }), 'warn');
    let next;
    try {
      next = fromRecord(answer);
    } catch (err) {
      loadError = errorText(err);
      render();
      return;
    }
    show(next);
  }

  function lost(reason) {
    sync = { kind: 'lost', reason };
    setGripGame(null);
    render();
  }

  function reachable(yes) {
    if (!yes) sync = { kind: 'offline' };
    else if (sync && sync.kind === 'offline') sync = null;
    render();
  }

  // With nothing to send, the server's record agrees with `server` after `ops`.
  function matchesAfter(server, ops) {
    try {
      let trial = fromRecord(saved().acked);
      for (const o of ops) trial = playOp(trial, o);
      return sameRecord(recordOf(trial), { number: server.number, passes: server.passes, actions: server.actions,
        redo: server.redo, used_undo: server.used_undo });
    } catch {
      return false;
    }
  }

  // ---- starting and loading games ------------------------------------------------------
  async function load() {
    const old = getGripGame();
    if (old && old.acked) {
      try {
        follow(old.acked, old);
        if (old.id && !old.pending.length) check(old);
        return;
      } catch (err) {
        loadError = errorText(err);
      }
    } else if (old && old.id && old.token) { // saved by the page before issue 24: only id and token
      try {
        const answer = await api.gripSync(old.id, old.token);
        follow(recordFrom(answer), { id: old.id, token: old.token, daily: Boolean(old.daily), seq: answer.seq });
        keepMeta(answer);
        return;
      } catch (err) {
        if (err.status !== 404 && err.status !== 401 && err.status !== 403 && err.status !== 0) {
          loadError = errorText(err);
          render();
          return;
        }
      }
    }
    newDeal({});
  }

  // A game reloaded with nothing to send: the server's record must still be the page's.
  async function check(savedGame) {
    try {
      const answer = await api.gripSync(savedGame.id, savedGame.token);
      if (destroyed || saved() !== savedGame) return;
      link.reachable(true);
      if (answer.seq !== savedGame.seq || !sameRecord(recordOf(local), recordFrom(answer))) {
        savedGame.seq = answer.seq;
        savedGame.acked = recordFrom(answer);
        setGripGame(savedGame);
        refused(answer, t('grip.differs'));
      } else {
        acked(answer);
      }
    } catch (err) {
      if (err.status === 404) lost(err.detail || '');
      else if (err.status === 0) link.reachable(false);
    }
  }

  function solutionsSeen() { const seen = getPref('gripSolutionsSeen', []); return Array.isArray(seen) ? seen : []; }

  const recordFrom = (a) => ({ number: a.number, passes: a.passes, actions: a.actions, redo: a.redo, used_undo: a.used_undo });

  // A new deal starts at once, on the page: the server learns of it through the link
  // (at once when reachable, later otherwise). Only "deals that can be won" need the
  // server first: it alone knows which deals are certified.
  async function newDeal({ number = null, daily = false }) {
    if (busy) return;
    const winnable = winnableOnly && passes === null && number === null && !daily;
    if (winnable) {
      busy = true;
      render();
      try {
        const answer = await api.newGrip({ winnable: true });
        busy = false;
        follow(recordOf(newGame(answer.number, null)),
          { id: answer.id, token: answer.token, meta: { winnable: true, par: answer.par, used_hint: false } });
        play('draw');
        return;
      } catch (err) {
        busy = false;
        if (err.status !== 0) { toast(errorText(err), 'warn'); render(); return; }
        toast(t('grip.winnableOffline'), 'warn'); // a random deal instead, below
      }
    }
    const chosen = number !== null ? number : daily ? todaysDailyNumber() : randomDealNumber();
    follow(recordOf(newGame(chosen, passes)), { daily });
    play('draw');
  }

  // A finished deal counts in the statistics once, when the server has checked it, with
  // its par when the server has it.
  function maybeRecord() {
    const result = replayer.current() || !verified() ? null : resultOf(game);
    if (!result) return;
    if (result.par === null && !parFailed) return; // recorded when the par arrives
    recordGripResult(result);
    statsDrawn = null; // drawn again with this result
  }

  async function fetchPar(id) {
    parWanted = id;
    parFailed = false;
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const s = saved();
        if (!s || s.id !== id) return;
        const answer = await api.gripPar(id, s.token);
        if (destroyed || !saved() || saved().id !== id) return;
        meta = { ...meta, par: answer.par };
        saved().meta = { ...saved().meta, par: answer.par };
        setGripGame(saved());
        game = answerOf(local, { ...meta, id });
        maybeRecord();
        render();
        return;
      } catch (err) {
        if (err.status !== 503 && err.status !== 429 && err.status !== 0) break;
        await new Promise((resolve) => setTimeout(resolve, 2000 * (attempt + 1)));
        if (destroyed || !saved() || saved().id !== id) return;
      }
    }
    if (saved() && saved().id === id && meta.par == null) { parFailed = true; maybeRecord(); render(); }
  }

  // ---- hints and solutions: the server's, asked without blocking play -----------------
  async function askHint() {
    if (!local || finished() || replayer.current() || finishing) return false;
    if (!link.online()) { toast(t('grip.waitsForConnection')); return false; }
    const asked = local;
    hintAsked = asked;
    render();
    const sent = await link.idle(); // the server must have the position first
    if (local !== asked || destroyed) return false; // the player moved on: no hint for an old position
    if (!sent) { hintAsked = null; render(); toast(t('grip.waitsForConnection')); return false; }
    // Hints are paced to the server's default budget per game (4 a second): a player who
    // holds H, or plays hint after hint now that moves no longer wait for the server, is
    // not answered 429 "slow down"; the wait shows as the hint being asked.
    const wait = lastHintAt + HINT_SPACING_MS - performance.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (local !== asked || destroyed) return false;
    }
    lastHintAt = performance.now();
    const s = saved();
    try {
      const answer = await api.gripOp(s.id, s.token, { op: 'hint' });
      if (local !== asked || destroyed) return false;
      hintAsked = null;
      meta = { ...meta, hint: answer.hint, hint_info: answer.hint_info, used_hint: answer.used_hint };
      s.meta = { ...s.meta, used_hint: answer.used_hint };
      setGripGame(s);
      game = answerOf(local, { ...meta, id: s.id });
      render();
      guide.update(game);
      const info = game.hint_info;
      live.textContent = game.hint ? `${hintText(game.hint, t)} ${info ? t('grip.hintExpect', { n: Math.round(info.expected_score) }) : ''}` : t('grip.noHint');
      if (!game.hint) toast(t('grip.noHint'));
      return true;
    } catch (err) {
      if (local === asked) { hintAsked = null; render(); }
      if (err.status === 409) return false; // the game moved on meanwhile
      if (err.status === 0) link.reachable(false);
      toast(err.status === 503 ? t('grip.busy') : err.status === 0 ? t('grip.waitsForConnection') : errorText(err), 'warn');
      return false;
    }
  }

  async function showSolution() {
    if (!game || busy) return;
    busy = true;
    render();
    try {
      await link.idle();
      const s = saved();
      const answer = await api.gripSolution(s.id, s.token);
      busy = false;
      // Aided from now on (the server marked it so), and so is this deal started again by number.
      meta = { ...meta, used_hint: true };
      if (saved()) saved().meta = { ...saved().meta, used_hint: true };
      game = { ...game, used_hint: true };
      setPref('gripSolutionsSeen', [answer.number, ...solutionsSeen().filter((n) => n !== answer.number)].slice(0, 200));
      replayer.start(answer);
      selection.clear();
      render();
    } catch (err) {
      busy = false;
      toast(err.status === 0 ? t('grip.waitsForConnection') : errorText(err), 'warn');
      render();
    }
  }

  // ---- auto-finish ------------------------------------------------------------------
  function scheduleFinishCheck() {
    clearTimeout(finishTimer);
    if (finishing) return;
    if (finishLine) { finishLine = null; render(); }
    const state = local && current(local);
    if (!state || state.ended || state.stock.length + state.talon.length > FINISH_MAX_SCORE) return;
    const at = local;
    finishTimer = setTimeout(() => {
      if (local !== at || destroyed || finishing) return;
      const line = winningLine(current(local));
      finishLine = line && line.length ? line : null;
      if (finishLine) { live.textContent = t('grip.finishOffer'); render(); }
    }, FINISH_CHECK_MS);
  }

  function autoFinish() {
    if (!finishLine || finishing) return;
    const line = finishLine;
    finishLine = null;
    let i = 0;
    const step = () => {
      finishing = null;
      if (destroyed || i >= line.length) { render(); return; }
      const ok = op({ op: 'action', action: line[i], fromFinish: true });
      i += 1;
      if (!ok) { render(); return; }
      finishing = setTimeout(step, FINISH_STEP_MS);
      render();
    };
    select(null);
    finishing = setTimeout(step, 0);
    render();
  }

  function stopFinishing() {
    if (finishing) clearTimeout(finishing);
    finishing = null;
    finishLine = null;
  }

  function act(action, ghost, targetNode) {
    if (ghost) ghost.remove();
    const ok = op({ op: 'action', action });
    const landed = ok && targetNode ? grid.querySelector(`[data-target="${cssEscape(targetNode.dataset.target)}"] .card:last-of-type`) : null;
    if (landed) landed.classList.add('landed');
    return ok;
  }

  // A drag brings its ghost (removed as the move lands); a click or a key makes none:
  // the move shows in the same frame, and measuring the cards for a ghost would only
  // make the browser lay the page out in the middle of the input.
  function commit(s, key, how = {}) {
    const action = actionFor(targetMap(s).get(key), how);
    if (!action) return false;
    const node = grid.querySelector(`[data-target="${cssEscape(key)}"]`);
    act(action, how.ghost, node);
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
    if (window.confirm(t('grip.endConfirm'))) op({ op: 'end' });
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
  const drawGrid = createGrid(grid);
  let drawn = null; // the keys of what is on the page (grip-diff.js); null: draw everything
  const on = {
    op: (name) => (name === 'hint' ? askHint() : op({ op: name })),
    finish: autoFinish,
    retry: () => link.retry(),
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
    const moved = replay && replay.i ? replay.steps[replay.i - 1].action : null; // marked on the grid
    const v = { game, state: st(), legal: legal(), busy, replay, moved, finished: finished(), hint: game ? game.hint : null,
      isDaily, parFailed, loadError, hintAsked: Boolean(hintAsked), finishLine: Boolean(finishLine),
      finishing: Boolean(finishing), online: link.online(), verified: verified(), sync };
    el.classList.toggle('finished', v.finished);
    el.classList.toggle('replaying', Boolean(replay));
    el.classList.toggle('won', Boolean(v.state && v.state.won));
    // Only the parts whose drawing would differ are drawn again (grip-diff.js).
    const keys = drawKeys(v, t('lang.code'));
    const { parts, cells } = changes(drawn, keys);
    drawn = keys;
    if (parts.has('bar')) drawBar(bar, v, on);
    else if (parts.has('score')) drawScore(bar, v);
    if (parts.has('sync')) drawSync(syncLine, v, on);
    if (parts.has('top')) drawTop(v);
    drawGrid(v, cells);
    if (parts.has('summary') && replay) {
      drawReplay(summarySlot, replay, replayOn);
    } else if (parts.has('summary')) {
      const said = drawSummary(summarySlot, v, on);
      if (said && summaryShownFor !== saved()) {
        summaryShownFor = saved();
        live.textContent = said;
      }
    }
    if (parts.has('sync') || parts.has('summary')) summaryArea.hidden = !syncLine.firstChild && !summarySlot.firstChild;
    if (!controls.firstChild || controls.dataset.busy !== String(busy) || controls.dataset.lang !== t('lang.code')) {
      controls.dataset.busy = String(busy);
      controls.dataset.lang = t('lang.code');
      drawControls(controls, { busy, passes, winnableOnly }, on);
    }
    if (statsDrawn !== t('lang.code')) { // not on every move: they change only when a deal counts
      statsDrawn = t('lang.code');
      drawStats(stats, getGripStats());
      recentFor = undefined;
    }
    if (recentFor !== saved()) { // a result counted, or another game followed: the games to watch again
      recentFor = saved();
      drawRecent(recent, listGripPlayed(), navigate);
    }
    selection.repaint();
  }

  render();
  load();

  return {
    rerender: () => { controls.dataset.lang = ''; drawn = null; render(); },
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
      clearTimeout(finishTimer);
      stopFinishing();
      link.close();
      replayer.pause();
      guide.destroy();
      selection.destroy();
      unbindKeys();
      el.remove();
    },
  };
}


