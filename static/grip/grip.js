// Devil's Grip, played on the page: every move, undo and redo is applied here at once
// with the rules in grip-rules.js (grip-local.js keeps the history), in the same
// frame as the input, online or not; grip-link.js sends the operations to the server in
// order, in batches, and the server replays them with its engine. The server stays the
// authority: a batch it refuses, or a record that differs from the page's, puts the page
// back on the server's game with the reason shown (grip-reconcile.js decides whether they
// agree). A deal can be started and played to the end with no connection (the deal comes
// from its number); it is sent, and so verified, when the server is reachable again, and
// counts in the statistics only then. Hints (grip-hint.js), par (grip-par.js), "only deals
// that can be won" and a certified deal's solution come from the server (its search sees
// only the player's view) and wait for the connection; grip-meta.js keeps what only the
// server knows. When the player knows the stock's order and the rules can prove the deal
// won from here (grip-finish.js), the page offers to finish it and plays the remaining
// moves (grip-autofinish.js). This file is the controller: it holds the DOM, the timers
// and the requests, and leaves the decisions to those modules.

import { h, toast, cssEscape } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { bindKeys } from '../cards/input.js';
import { createSelection } from '../cards/selection.js';
import { gripTargets, actionFor, stockAction, nextRun } from '../cards/targets.js';
import { getGripGame, setGripGame, getGripStats, recordGripResult, getPref, setPref, listGripPlayed } from '../common/storage.js';
import { COLS, shownState, isFinished, resultOf, hintText } from './grip-model.js';
import { newGame, fromRecord, play as playOp, recordOf, answerOf, current, todaysDailyNumber, randomDealNumber } from './grip-local.js';
import { createLink } from './grip-link.js';
import { recordFrom } from './sync/grip-outbox.js';
import { savedGameOf, rebuild, agrees, replaysTo, reloadDiffers, syncWhenReachable, isVerified } from './sync/grip-reconcile.js';
import { solutionsSeenOf, withSolutionSeen, passesOf, metaOfFollowed, metaFromAnswer, savedMetaOf, withoutHint,
  withHint } from './sync/grip-meta.js';
import { createHintPacer, requestHint, hintFailure } from './sync/grip-hint.js';
import { fetchPar as fetchParWithRetries } from './sync/grip-par.js';
import { FINISH_CHECK_MS, worthProving, createFinishPlayer } from './grip-autofinish.js';
import { pickOfKey, pickKeysOf, cellAfter } from './grip-picks.js';
import { startPlan, dealInstead, wantsWinnable, dealNumber } from './sync/grip-start.js';
import { winningLine } from './grip-finish.js';
import { createReplay } from './grip-replay.js';
import { drawBar, drawScore, createTop, createGrid, drawStats, drawControls, drawReplay, drawSummary, drawSync } from './grip-panels.js';
import { drawKeys, changes } from './grip-diff.js';
import { drawRecent } from './grip-recent.js';
import { play } from '../common/sound.js';
import { errorText } from '../common/ui.js';
import { createGripGuide } from '../guide/guide.js';

/** @typedef {import('./sync/grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('./sync/grip-sync-types.js').RequestFailure} RequestFailure */
/** @typedef {import('./grip-rules.js').Action} Action */
/** @typedef {import('./grip-local.js').GripOp} GripOp */
/** @typedef {import('./grip-local.js').GripRecord} GripRecord */
/** @typedef {import('./grip-local.js').LocalGame} LocalGame */
/** @typedef {import('./grip-model.js').GripAnswer} GripAnswer the game as the panels draw it */
/** @typedef {import('./grip-model.js').GripSyncAnswer} GripSyncAnswer */
/** @typedef {import('./grip-model.js').SyncNote} SyncNote */
/** @typedef {import('./sync/grip-meta.js').GripMeta} GripMeta */
/** @typedef {import('./grip-picks.js').GripSelection} GripSelection */
/** @typedef {GripOp & {fromFinish?: boolean}} PageOp an operation, and whether auto-finish plays it */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * @param {HTMLElement} container
 * @param {{navigate?: (path: string) => void}} [options]
 */
export function mount(container, { navigate } = {}) {
  /** @type {LocalGame | null} */
  let local = null; // the game as played on this page (grip-local.js)
  /** @type {GripMeta} */
  let meta = {}; // what only the server knows: par, hint, used_hint, winnable, explain
  /** @type {GripAnswer | null} */
  let game = null; // answerOf(local, meta): what the panels draw
  let busy = false; // waiting for a winnable deal or a solution (never for a move)
  /** @type {LocalGame | null} */
  let hintAsked = null; // the local game a hint was asked for
  const hintPacer = createHintPacer(() => performance.now());
  let destroyed = false;
  let loadError = '';
  /** @type {SavedGame | null} */
  let summaryShownFor = null;
  let isDaily = false;
  /** @type {number | null} */
  let passes = passesOf(getPref('gripPasses', null)); // 1, 3 or null (unlimited): the panel's choices
  let winnableOnly = getPref('gripWinnable', false) === true;
  let parFailed = false;
  /** @type {SyncNote | null} */
  let sync = null; // what the sync line says
  /** @type {Action[] | null} */
  let finishLine = null; // a proven winning line from the current position
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let finishTimer;
  const finisher = createFinishPlayer({ // auto-finish, while it plays
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (timer) => clearTimeout(timer),
  });
  /** @type {string | null} */
  let statsDrawn = null; // the language the statistics panel was last drawn in
  /** @type {SavedGame | null | undefined} */
  let recentFor; // the game followed when the recent games were last drawn
  const replayer = createReplay(() => render()); // a certified deal's solution being shown

  const bar = h('div', { class: 'grip-bar' });
  const syncLine = h('div', { class: 'grip-sync-slot' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group', 'aria-label': t('grip.grid') });
  const summarySlot = h('div', { class: 'grip-summary-slot' });
  const controls = h('section', { class: 'panel grip-new', 'aria-labelledby': 'grip-new-title' });
  const stats = h('section', { class: 'panel grip-stats', 'aria-labelledby': 'grip-stats-title' });
  // your recent games, to watch again (grip-recent.js)
  const recent = h('section', { class: 'panel grip-recent', 'aria-labelledby': 'grip-recent-title', hidden: true });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'grip-board' }, grid);
  const summaryArea = h('div', { class: 'grip-summary-area' }, syncLine, summarySlot);
  const el = h('div', { class: 'grip' }, h('h1', { class: 'sr-only', text: t('home.gripTitle') }), bar, summaryArea, top, board, h('div', { class: 'grip-side' }, controls, stats, recent), live);
  container.append(el);

  const link = createLink({ save: (savedGame) => setGripGame(savedGame), on: {
    acked, refused, lost, created, reachable,
    matches: (server, ops) => {
      const s = saved();
      return Boolean(s) && replaysTo(/** @type {SavedGame} */ (s).acked, server, ops);
    },
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
  const finishing = () => finisher.playing();
  /** @returns {Action[]} */
  const legal = () => (game && !finished() && !finishing() ? game.legal || [] : []);
  /** @param {number} c */
  const pile = (c) => { const s = st(); return (s && s.grid[c]) || []; };
  const saved = () => link.current();
  // The server has every operation of this game (and so has checked them).
  const verified = () => isVerified(saved());

  /** @returns {GripSelection | null} */
  function talonSel() {
    const s = st();
    return s && s.talon && s.talon.length ? { src: 'talon' } : null;
  }

  /**
   * @param {HTMLElement} node
   * @returns {GripSelection | null}
   */
  function pickOf(node) {
    if (!game || finished() || finishing()) return null;
    return pickOfKey(node.dataset.pick, (c) => pile(c).length, Boolean(talonSel()));
  }

  /**
   * @param {GripSelection | null} s
   * @returns {HTMLElement[]}
   */
  function liftOf(s) {
    if (!s) return [];
    if (s.src === 'talon') return [.../** @type {NodeListOf<HTMLElement>} */ (top.querySelectorAll('[data-pick="talon"]'))];
    const out = [];
    for (const key of pickKeysOf(s, pile(s.src).length)) {
      /** @type {HTMLElement | null} */
      const node = grid.querySelector(`[data-pick="${key}"]`);
      if (node) out.push(node);
    }
    return out;
  }

  // target key -> {build, swap} actions, from the legal list only
  /** @param {GripSelection | null} s */
  function targetMap(s) {
    return gripTargets(legal(), s, s && s.src !== 'talon' ? pile(s.src).length : 0);
  }

  // ---- the game on the page ------------------------------------------------------------
  // Shows `next` (a local game): the view the panels draw, the guide, the sync line.
  /** @param {LocalGame} next */
  function show(next) {
    local = next;
    game = view(next);
    selection.clear();
    maybeRecord();
    render();
    guide.update(game);
    scheduleFinishCheck();
  }

  /**
   * The view of `of` with the meta, under the id of the game followed (or `id`).
   * @param {LocalGame} of
   * @param {string | null} [id]
   * @returns {GripAnswer}
   */
  function view(of, id) {
    const s = saved();
    const shownId = id !== undefined ? id : s ? s.id : null;
    // A game started offline has no id until the server creates it: its view carries
    // null meanwhile (answerOf types the server's answers, which always have one). Its
    // result is only recorded once verified (maybeRecord), when the id is there.
    return answerOf(of, { ...meta, id: /** @type {string} */ (shownId) });
  }

  // Plays one operation at once and queues it for the server. Returns whether it was legal.
  /** @param {PageOp} operation */
  function op(operation) {
    if (!local || replayer.current() || (finishing() && operation.fromFinish !== true)) return false;
    const { fromFinish, ...rest } = operation;
    const wire = /** @type {GripOp} */ (rest);
    let next;
    try {
      next = playOp(local, wire);
    } catch (err) {
      if (err && /** @type {{code?: unknown}} */ (err).code) {
        play('bad');
        toast(t('grip.illegal', { reason: /** @type {Error} */ (err).message }), 'warn');
        return false;
      }
      throw err;
    }
    meta = withoutHint(meta);
    hintAsked = null;
    const wasFinished = finished();
    show(next);
    link.push(wire);
    if (wire.op === 'action') play(wire.action.type === 'deal' || wire.action.type === 'redeal' ? 'draw' : 'place');
    // finished() means a game is shown, so st() is its state
    if (!wasFinished && finished()) play(/** @type {import('./grip-model.js').GripView} */ (st()).won ? 'win' : 'end');
    return true;
  }

  // A game to follow: its saved form (grip-link.js) and the local game rebuilt from it.
  /**
   * @param {GripRecord} record
   * @param {Partial<SavedGame>} [extra]
   */
  function follow(record, extra) {
    const savedGame = savedGameOf(record, extra);
    isDaily = Boolean(savedGame.daily);
    meta = metaOfFollowed(savedGame.meta, record.number, solutionsSeen());
    summaryShownFor = null;
    parFailed = false;
    stopFinishing();
    replayer.stop();
    const next = rebuild(savedGame);
    link.follow(savedGame);
    show(next);
    if (savedGame.id && meta.par == null) fetchPar(savedGame.id);
  }

  /** @param {GripAnswer | GripSyncAnswer} answer */
  function keepMeta(answer) {
    meta = metaFromAnswer(meta, answer, solutionsSeen());
    const s = saved();
    if (s) s.meta = savedMetaOf(meta);
  }

  // ---- what the server says ---------------------------------------------------------
  /** @param {GripAnswer} answer */
  function created(answer) {
    keepMeta(answer);
    game = view(/** @type {LocalGame} */ (local), answer.id);
    if (meta.par == null) fetchPar(/** @type {string} */ (answer.id));
    render();
  }

  // A batch replayed. With nothing left to send, the server's game must be the page's.
  /** @param {GripSyncAnswer} answer */
  function acked(answer) {
    if (destroyed) return;
    keepMeta(answer);
    const s = /** @type {SavedGame} */ (saved());
    const here = /** @type {LocalGame} */ (local);
    if (!s.pending.length && !agrees(here, answer)) { refused(answer, t('grip.differs')); return; }
    sync = syncWhenReachable(sync, true);
    game = view(here, s.id);
    maybeRecord();
    render();
  }

  // The server refused a batch (or its game is not the page's): back to the server's.
  /**
   * @param {GripSyncAnswer} answer
   * @param {string} reason
   */
  function refused(answer, reason) {
    if (destroyed) return;
    stopFinishing();
    keepMeta(answer);
    sync = { kind: 'refused', reason };
    play('bad');
    toast(t('grip.refused', { reason }), 'warn');
    let next;
    try {
      next = fromRecord(recordFrom(answer));
    } catch (err) {
      loadError = errorText(err);
      render();
      return;
    }
    show(next);
  }

  /** @param {string} reason */
  function lost(reason) {
    sync = { kind: 'lost', reason };
    setGripGame(null);
    render();
  }

  /** @param {boolean} yes */
  function reachable(yes) {
    sync = syncWhenReachable(sync, yes);
    render();
  }

  // ---- starting and loading games ------------------------------------------------------
  async function load() {
    const plan = startPlan(getGripGame());
    if (plan.kind === 'resume') {
      try {
        follow(plan.saved.acked, plan.saved);
        if (plan.check) check(plan.saved);
        return;
      } catch (err) {
        loadError = errorText(err);
      }
    } else if (plan.kind === 'fetch') { // saved before the page played moves itself: only id and token
      try {
        const answer = await api.gripSync(plan.id, plan.token);
        follow(recordFrom(answer), { id: plan.id, token: plan.token, daily: plan.daily, seq: answer.seq });
        keepMeta(answer);
        return;
      } catch (err) {
        if (!dealInstead(/** @type {RequestFailure} */ (err).status)) {
          loadError = errorText(err);
          render();
          return;
        }
      }
    }
    newDeal({});
  }

  // A game reloaded with nothing to send: the server's record must still be the page's.
  /** @param {SavedGame} savedGame */
  async function check(savedGame) {
    try {
      // checked only when the server has every operation (startPlan): the game has an id
      const answer = await api.gripSync(/** @type {string} */ (savedGame.id), savedGame.token);
      if (destroyed || saved() !== savedGame) return;
      link.reachable(true);
      if (reloadDiffers(savedGame, /** @type {LocalGame} */ (local), answer)) {
        savedGame.seq = answer.seq;
        savedGame.acked = recordFrom(answer);
        setGripGame(savedGame);
        refused(answer, t('grip.differs'));
      } else {
        acked(answer);
      }
    } catch (err) {
      const failure = /** @type {RequestFailure} */ (err);
      if (failure.status === 404) lost(/** @type {string} */ (failure.detail || ''));
      else if (failure.status === 0) link.reachable(false);
    }
  }

  /** @returns {number[]} */
  function solutionsSeen() { return solutionsSeenOf(getPref('gripSolutionsSeen', [])); }

  // A new deal starts at once, on the page: the server learns of it through the link
  // (at once when reachable, later otherwise). Only "deals that can be won" need the
  // server first: it alone knows which deals are certified.
  /** @param {{number?: number | null, daily?: boolean}} which */
  async function newDeal({ number = null, daily = false }) {
    if (busy) return;
    if (wantsWinnable({ winnableOnly, passes, number, daily })) {
      busy = true;
      render();
      try {
        const answer = await api.newGrip({ winnable: true });
        busy = false;
        // a new game's answer always has its deal number (sessions.py `new` picks one)
        follow(recordOf(newGame(/** @type {number} */ (answer.number), null)),
          { id: answer.id, token: answer.token, meta: { winnable: true, par: answer.par, used_hint: false } });
        play('draw');
        return;
      } catch (err) {
        busy = false;
        if (/** @type {RequestFailure} */ (err).status !== 0) { toast(errorText(err), 'warn'); render(); return; }
        toast(t('grip.winnableOffline'), 'warn'); // a random deal instead, below
      }
    }
    const chosen = dealNumber({ number, daily }, { today: () => todaysDailyNumber(), random: () => randomDealNumber() });
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

  /** @param {string} id */
  async function fetchPar(id) {
    parFailed = false;
    const following = () => { const s = saved(); return Boolean(s && s.id === id); };
    const outcome = await fetchParWithRetries({
      ask: () => api.gripPar(id, /** @type {SavedGame} */ (saved()).token),
      following,
      wanted: () => !destroyed && following(),
      sleep,
    });
    if (outcome.kind === 'par') {
      const s = /** @type {SavedGame} */ (saved());
      meta = { ...meta, par: outcome.par };
      s.meta = { ...s.meta, par: outcome.par };
      setGripGame(s);
      game = view(/** @type {LocalGame} */ (local), id);
      maybeRecord();
      render();
    } else if (outcome.kind === 'failed' && following() && meta.par == null) {
      parFailed = true;
      maybeRecord();
      render();
    }
  }

  // ---- hints and solutions: the server's, asked without blocking play -----------------
  async function askHint() {
    if (!local || finished() || replayer.current() || finishing()) return false;
    if (!link.online()) { toast(t('grip.waitsForConnection')); return false; }
    const asked = local;
    hintAsked = asked;
    render();
    /** @type {SavedGame} */
    let s = /** @type {SavedGame} */ (saved());
    const outcome = await requestHint({
      idle: () => link.idle(),
      stillAsked: () => local === asked && !destroyed,
      pacer: hintPacer,
      sleep,
      // asked only once the link is idle with every operation sent: the server has the game
      ask: () => { s = /** @type {SavedGame} */ (saved()); return api.gripOp(/** @type {string} */ (s.id), s.token, { op: 'hint' }); },
    });
    if (outcome.kind === 'stale') return false; // the player moved on: no hint for an old position
    if (outcome.kind === 'unsent') { hintAsked = null; render(); toast(t('grip.waitsForConnection')); return false; }
    if (outcome.kind === 'failed') {
      if (local === asked) { hintAsked = null; render(); }
      const status = outcome.error.status;
      const kind = hintFailure(status);
      if (kind === 'quiet') return false; // the game moved on meanwhile
      if (kind === 'offline') link.reachable(false);
      toast(kind === 'busy' ? t('grip.busy') : kind === 'offline' ? t('grip.waitsForConnection') : errorText(outcome.error), 'warn');
      return false;
    }
    const answer = outcome.answer;
    hintAsked = null;
    meta = withHint(meta, answer);
    s.meta = { ...s.meta, used_hint: answer.used_hint };
    setGripGame(s);
    const shown = view(asked, s.id);
    game = shown;
    render();
    guide.update(shown);
    const info = shown.hint_info;
    live.textContent = shown.hint ? `${hintText(shown.hint, t)} ${info ? t('grip.hintExpect', { n: Math.round(info.expected_score) }) : ''}` : t('grip.noHint');
    if (!shown.hint) toast(t('grip.noHint'));
    return true;
  }

  async function showSolution() {
    if (!game || busy) return;
    busy = true;
    render();
    try {
      await link.idle();
      const s = /** @type {SavedGame} */ (saved());
      // the solution is offered for certified deals only, dealt by the server: the game has an id
      const answer = await api.gripSolution(/** @type {string} */ (s.id), s.token);
      busy = false;
      // Aided from now on (the server marked it so), and so is this deal started again by number.
      meta = { ...meta, used_hint: true };
      const now = saved();
      if (now) now.meta = { ...now.meta, used_hint: true };
      game = { ...game, used_hint: true };
      setPref('gripSolutionsSeen', withSolutionSeen(solutionsSeen(), answer.number));
      replayer.start(answer);
      selection.clear();
      render();
    } catch (err) {
      busy = false;
      toast(/** @type {RequestFailure} */ (err).status === 0 ? t('grip.waitsForConnection') : errorText(err), 'warn');
      render();
    }
  }

  // ---- auto-finish ------------------------------------------------------------------
  function scheduleFinishCheck() {
    clearTimeout(finishTimer);
    if (finishing()) return;
    if (finishLine) { finishLine = null; render(); }
    const at = local;
    if (!at || !worthProving(current(at))) return;
    finishTimer = setTimeout(() => {
      if (local !== at || destroyed || finishing()) return;
      const line = winningLine(current(at));
      finishLine = line && line.length ? /** @type {Action[]} */ (line) : null;
      if (finishLine) { live.textContent = t('grip.finishOffer'); render(); }
    }, FINISH_CHECK_MS);
  }

  function autoFinish() {
    if (!finishLine || finishing()) return;
    const line = finishLine;
    finishLine = null;
    select(null);
    finisher.start(line, {
      play: (action) => op({ op: 'action', action, fromFinish: true }),
      alive: () => !destroyed,
      changed: () => render(),
    });
    render();
  }

  function stopFinishing() {
    finisher.stop();
    finishLine = null;
  }

  /**
   * @param {Action} action
   * @param {{remove: () => void} | null} [ghost] a drag's ghost (input.js)
   * @param {HTMLElement | null} [targetNode]
   */
  function act(action, ghost, targetNode) {
    if (ghost) ghost.remove();
    const ok = op({ op: 'action', action });
    // targetNode was found by its data-target (commit): it has one
    const landed = ok && targetNode ? grid.querySelector(`[data-target="${cssEscape(/** @type {string} */ (targetNode.dataset.target))}"] .card:last-of-type`) : null;
    if (landed) landed.classList.add('landed');
    return ok;
  }

  // A drag brings its ghost (removed as the move lands); a click or a key makes none:
  // the move shows in the same frame, and measuring the cards for a ghost would only
  // make the browser lay the page out in the middle of the input.
  /**
   * @param {GripSelection} s
   * @param {string} key
   * @param {{ghost?: {remove: () => void}, shift?: boolean}} [how]
   */
  function commit(s, key, how = {}) {
    const action = actionFor(targetMap(s).get(key), how);
    if (!action) return false;
    /** @type {HTMLElement | null} */
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
  /** @returns {number | null} */
  function focusedCell() {
    const a = /** @type {HTMLElement | null} */ (document.activeElement);
    return a && a.dataset && a.dataset.cell !== undefined ? Number(a.dataset.cell) : null;
  }

  function enterFocused() {
    const a = document.activeElement;
    if (!a || !el.contains(a)) return false;
    const c = focusedCell();
    if (c === null) { selection.activate(a); return true; }
    if (selection.dropOn(`c:${c}`)) return true;
    const held = selection.get(); // a talon selection is not this cell's run: start one
    select(finished() ? null : nextRun(held && held.src !== 'talon' ? held : null, c, pile(c).length));
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

  /** @param {number} delta */
  function moveFocus(delta) {
    const c = focusedCell();
    const next = cellAfter(c, delta);
    /** @type {HTMLElement | null} */
    const node = grid.querySelector(`[data-cell="${next}"]`);
    if (node) node.focus();
    return true;
  }

  // ---- drawing ---------------------------------------------------------------------
  const drawTop = createTop(top, { onDeal: deal });
  const drawGrid = createGrid(grid);
  /** @type {ReturnType<typeof drawKeys> | null} */
  let drawn = null; // the keys of what is on the page (grip-diff.js); null: draw everything
  const on = {
    /** @param {'undo' | 'redo' | 'end' | 'hint'} name */
    op: (name) => (name === 'hint' ? askHint() : op({ op: name })),
    finish: autoFinish,
    retry: () => link.retry(),
    endDeal,
    newDeal,
    showSolution,
    /** @param {number | null} value */
    setPasses: (value) => { passes = value; setPref('gripPasses', passes); },
    /** @param {boolean} checked */
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
      finishing: finishing(), online: link.online(), verified: verified(), sync };
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


