// The Devil's Grip game the page plays, and its session with the server: the one state
// object of the page (the local game, what only the server knows, the sync line, the
// proven finish...), the moves played on it at once and handed to the link (grip-link.js),
// what the link reports back (created, acked, refused, lost, reachable), starting and
// loading games, par, hints, a certified deal's solution and auto-finish. No DOM: the
// page gives it the link, the API, the storage, the timers and how to tell the player
// (toast, sound, confirm), and hears of every change through `page.changed()`; its
// decisions are the pure modules' (sync/*.js, grip-local.js, grip-autofinish.js...).

import { t } from '../../common/i18n.js';
import { errorText } from '../../common/ui.js';
import { shownState, isFinished, resultOf, hintText } from '../grip-model.js';
import { newGame, fromRecord, play as playOp, recordOf, answerOf, current, todaysDailyNumber, randomDealNumber } from '../grip-local.js';
import { recordFrom } from '../sync/grip-outbox.js';
import { savedGameOf, rebuild, agrees, replaysTo, reloadDiffers, syncWhenReachable, isVerified } from '../sync/grip-reconcile.js';
import { solutionsSeenOf, withSolutionSeen, passesOf, metaOfFollowed, metaFromAnswer, savedMetaOf, withoutHint,
  withHint } from '../sync/grip-meta.js';
import { createHintPacer, requestHint, hintFailure } from '../sync/grip-hint.js';
import { fetchPar as fetchParWithRetries } from '../sync/grip-par.js';
import { startPlan, dealInstead, wantsWinnable, dealNumber } from '../sync/grip-start.js';
import { createFinishPlayer, createProofRunner } from '../grip-autofinish.js';
import { searchWinningLine, lineAfter } from '../grip-finish.js';
import { createReplay } from '../grip-replay.js';

/** @typedef {import('../sync/grip-sync-types.js').SavedGame} SavedGame */
/** @typedef {import('../sync/grip-sync-types.js').RequestFailure} RequestFailure */
/** @typedef {import('../grip-rules.js').Action} Action */
/** @typedef {import('../grip-local.js').GripOp} GripOp */
/** @typedef {import('../grip-local.js').GripRecord} GripRecord */
/** @typedef {import('../grip-local.js').LocalGame} LocalGame */
/** @typedef {import('../grip-model.js').GripAnswer} GripAnswer the game as the panels draw it */
/** @typedef {import('../grip-model.js').GripSyncAnswer} GripSyncAnswer */
/** @typedef {import('../grip-model.js').GripView} GripView */
/** @typedef {import('../grip-model.js').GripPageView} GripPageView */
/** @typedef {import('../grip-model.js').SyncNote} SyncNote */
/** @typedef {import('../sync/grip-meta.js').GripMeta} GripMeta */
/** @typedef {import('../grip-link.js').Link} Link */
/** @typedef {import('../grip-link.js').LinkEvents} LinkEvents */
/** @typedef {GripOp & {fromFinish?: boolean}} PageOp an operation, and whether auto-finish plays it */
/** @typedef {ReturnType<typeof setTimeout>} Timer */

/**
 * What the page draws: the panels' view, and what the new-deal form, the statistics,
 * the summary and the recent games also read.
 * @typedef {GripPageView & {
 *   passes: number | null,
 *   winnableOnly: boolean,
 *   saved: SavedGame | null,
 *   recorded: number,
 * }} GripScreen
 */

/**
 * What the session needs: everything that talks to the browser or the server.
 * @typedef {object} SessionDeps
 * @property {(options: {save: (saved: SavedGame | null) => void, on: LinkEvents}) => Link} createLink
 * @property {Pick<typeof import('../../common/api.js').api, 'gripSync' | 'gripPar' | 'gripOp' | 'gripSolution' | 'newGrip'>} api
 * @property {Pick<typeof import('../../common/storage.js'), 'getGripGame' | 'setGripGame' | 'recordGripResult' | 'getPref' | 'setPref'>} store
 * @property {(ms: number) => Promise<void>} sleep
 * @property {() => number} now a monotonic clock in ms (the hint pacer's)
 * @property {(fn: () => void, ms: number) => Timer} setTimer
 * @property {(timer: Timer | undefined) => void} clearTimer
 * @property {(name: import('../../common/sound.js').SoundName) => void} sound
 * @property {(text: string, kind?: 'warn') => void} toast
 * @property {(question: string) => boolean} confirm
 * @property {SessionPage} page
 */

/**
 * What the session tells the page.
 * @typedef {object} SessionPage
 * @property {() => void} changed something shown changed: draw again
 * @property {() => void} cleared a new position or a solution is shown: nothing is held any more
 * @property {() => void} drop the player's selection is dropped (auto-finish starts)
 * @property {(game: GripAnswer) => void} shown a game (or a hint) was drawn: the guide follows it
 * @property {(text: string) => void} announce said to screen readers
 */

/** @param {SessionDeps} deps */
export function createGripSession({ createLink, api, store, sleep, now, setTimer, clearTimer, sound, toast, confirm, page }) {
  // The page's one mutable state.
  const s = {
    /** @type {LocalGame | null} the game as played on this page (grip-local.js) */
    local: null,
    /** @type {GripMeta} what only the server knows: par, hint, used_hint, winnable, explain */
    meta: {},
    /** @type {GripAnswer | null} answerOf(local, meta): what the panels draw */
    game: null,
    busy: false, // waiting for a winnable deal or a solution (never for a move)
    /** @type {LocalGame | null} the local game a hint was asked for */
    hintAsked: null,
    destroyed: false,
    loadError: '',
    isDaily: false,
    /** @type {number | null} 1, 3 or null (unlimited): the panel's choices */
    passes: passesOf(store.getPref('gripPasses', null)),
    winnableOnly: store.getPref('gripWinnable', false) === true,
    parFailed: false,
    /** @type {SyncNote | null} what the sync line says */
    sync: null,
    /** @type {Action[] | null} a proven winning line from the current position */
    finishLine: null,
    /** @type {LocalGame | null} the position finishLine starts from */
    finishFrom: null,
    finishRecheck: false, // "Finish" was offered and the new position is being searched: it stays drawn
    finishAsked: false, // and the player pressed it meanwhile: played once the search answers
    recorded: 0, // results counted in the statistics since the page opened
  };
  const hintPacer = createHintPacer(now);
  const finisher = createFinishPlayer({ setTimer, clearTimer: (timer) => clearTimer(timer) }); // auto-finish, while it plays
  const prover = createProofRunner({ setTimer, clearTimer: (timer) => clearTimer(timer), now }); // the search for a win
  const replayer = createReplay(() => page.changed()); // a certified deal's solution being shown
  const link = createLink({ save: (savedGame) => store.setGripGame(savedGame), on: {
    acked, refused, lost, created, reachable,
    matches: (server, ops) => {
      const saved = link.current();
      return Boolean(saved) && replaysTo(/** @type {SavedGame} */ (saved).acked, server, ops);
    },
  } });

  // ---- what the page reads ------------------------------------------------------------
  const st = () => shownState(s.game, replayer.current());
  const finished = () => isFinished(s.game, replayer.current());
  const finishing = () => finisher.playing();
  /** @returns {Action[]} */
  const legal = () => (s.game && !finished() && !finishing() ? s.game.legal || [] : []);
  /** @param {number} c */
  const pile = (c) => { const state = st(); return (state && state.grid[c]) || []; };
  const saved = () => link.current();
  // The server has every operation of this game (and so has checked them).
  const verified = () => isVerified(saved());

  /** @returns {GripScreen} */
  function screen() {
    const replay = replayer.current();
    const moved = replay && replay.i ? replay.steps[replay.i - 1].action : null; // marked on the grid
    return { game: s.game, state: st(), legal: legal(), busy: s.busy, replay, moved, finished: finished(),
      hint: s.game ? s.game.hint : null, isDaily: s.isDaily, parFailed: s.parFailed, loadError: s.loadError,
      hintAsked: Boolean(s.hintAsked), finishLine: Boolean(s.finishLine || s.finishRecheck), finishing: finishing(), online: link.online(),
      verified: verified(), sync: s.sync, passes: s.passes, winnableOnly: s.winnableOnly, saved: saved(), recorded: s.recorded };
  }

  // ---- the game on the page ------------------------------------------------------------
  // Shows `next` (a local game): the view the panels draw, the guide, the sync line.
  /**
   * @param {LocalGame} next
   * @param {boolean} [byFinish] a move of the line "Finish" plays: nothing to search
   */
  function show(next, byFinish = false) {
    s.local = next;
    s.game = view(next);
    if (!byFinish) scheduleFinishCheck(); // before drawing: an offer that no longer holds is not drawn
    page.cleared();
    maybeRecord();
    page.changed();
    page.shown(s.game);
  }

  /**
   * The view of `of` with the meta, under the id of the game followed (or `id`).
   * @param {LocalGame} of
   * @param {string | null} [id]
   * @returns {GripAnswer}
   */
  function view(of, id) {
    const followed = saved();
    const shownId = id !== undefined ? id : followed ? followed.id : null;
    // A game started offline has no id until the server creates it: its view carries
    // null meanwhile (answerOf types the server's answers, which always have one). Its
    // result is only recorded once verified (maybeRecord), when the id is there.
    return answerOf(of, { ...s.meta, id: /** @type {string} */ (shownId) });
  }

  // Plays one operation at once and queues it for the server. Returns whether it was legal.
  /** @param {PageOp} operation */
  function op(operation) {
    if (!s.local || replayer.current() || (finishing() && operation.fromFinish !== true)) return false;
    const { fromFinish, ...rest } = operation;
    const wire = /** @type {GripOp} */ (rest);
    let next;
    try {
      next = playOp(s.local, wire);
    } catch (err) {
      if (err && /** @type {{code?: unknown}} */ (err).code) {
        sound('bad');
        toast(t('grip.illegal', { reason: /** @type {Error} */ (err).message }), 'warn');
        return false;
      }
      throw err;
    }
    s.meta = withoutHint(s.meta);
    s.hintAsked = null;
    const wasFinished = finished();
    show(next, fromFinish === true);
    link.push(wire);
    if (wire.op === 'action') sound(wire.action.type === 'deal' || wire.action.type === 'redeal' ? 'draw' : 'place');
    // finished() means a game is shown, so st() is its state
    if (!wasFinished && finished()) sound(/** @type {GripView} */ (st()).won ? 'win' : 'end');
    return true;
  }

  // A game to follow: its saved form (grip-link.js) and the local game rebuilt from it.
  /**
   * @param {GripRecord} record
   * @param {Partial<SavedGame>} [extra]
   */
  function follow(record, extra) {
    const savedGame = savedGameOf(record, extra);
    s.isDaily = Boolean(savedGame.daily);
    s.meta = metaOfFollowed(savedGame.meta, record.number, solutionsSeen());
    s.parFailed = false;
    stopFinishing();
    replayer.stop();
    const next = rebuild(savedGame);
    link.follow(savedGame);
    show(next);
    if (savedGame.id && s.meta.par == null) fetchPar(savedGame.id);
  }

  /** @param {GripAnswer | GripSyncAnswer} answer */
  function keepMeta(answer) {
    s.meta = metaFromAnswer(s.meta, answer, solutionsSeen());
    const followed = saved();
    if (followed) followed.meta = savedMetaOf(s.meta);
  }

  function endDeal() {
    if (!s.game || finished()) return;
    if (confirm(t('grip.endConfirm'))) op({ op: 'end' });
  }

  // ---- what the server says ---------------------------------------------------------
  /** @param {GripAnswer} answer */
  function created(answer) {
    keepMeta(answer);
    s.game = view(/** @type {LocalGame} */ (s.local), answer.id);
    if (s.meta.par == null) fetchPar(/** @type {string} */ (answer.id));
    page.changed();
  }

  // A batch replayed. With nothing left to send, the server's game must be the page's.
  /** @param {GripSyncAnswer} answer */
  function acked(answer) {
    if (s.destroyed) return;
    keepMeta(answer);
    const followed = /** @type {SavedGame} */ (saved());
    const here = /** @type {LocalGame} */ (s.local);
    if (!followed.pending.length && !agrees(here, answer)) { refused(answer, t('grip.differs')); return; }
    s.sync = syncWhenReachable(s.sync, true);
    s.game = view(here, followed.id);
    maybeRecord();
    page.changed();
  }

  // The server refused a batch (or its game is not the page's): back to the server's.
  /**
   * @param {GripSyncAnswer} answer
   * @param {string} reason
   */
  function refused(answer, reason) {
    if (s.destroyed) return;
    stopFinishing();
    keepMeta(answer);
    s.sync = { kind: 'refused', reason };
    sound('bad');
    toast(t('grip.refused', { reason }), 'warn');
    let next;
    try {
      next = fromRecord(recordFrom(answer));
    } catch (err) {
      s.loadError = errorText(err);
      page.changed();
      return;
    }
    show(next);
  }

  /** @param {string} reason */
  function lost(reason) {
    s.sync = { kind: 'lost', reason };
    store.setGripGame(null);
    page.changed();
  }

  /** @param {boolean} yes */
  function reachable(yes) {
    s.sync = syncWhenReachable(s.sync, yes);
    page.changed();
  }

  // ---- starting and loading games ------------------------------------------------------
  async function load() {
    const plan = startPlan(store.getGripGame());
    if (plan.kind === 'resume') {
      try {
        follow(plan.saved.acked, plan.saved);
        // the game the link follows now (follow made it anew from the save): check() stops
        // if the page has moved on to another game by the time the server answers
        if (plan.check) check(/** @type {SavedGame} */ (saved()));
        return;
      } catch (err) {
        s.loadError = errorText(err);
      }
    } else if (plan.kind === 'fetch') { // saved before the page played moves itself: only id and token
      try {
        const answer = await api.gripSync(plan.id, plan.token);
        follow(recordFrom(answer), { id: plan.id, token: plan.token, daily: plan.daily, seq: answer.seq });
        keepMeta(answer);
        return;
      } catch (err) {
        if (!dealInstead(/** @type {RequestFailure} */ (err).status)) {
          s.loadError = errorText(err);
          page.changed();
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
      if (s.destroyed || saved() !== savedGame) return;
      link.reachable(true);
      if (reloadDiffers(savedGame, /** @type {LocalGame} */ (s.local), answer)) {
        savedGame.seq = answer.seq;
        savedGame.acked = recordFrom(answer);
        store.setGripGame(savedGame);
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
  function solutionsSeen() { return solutionsSeenOf(store.getPref('gripSolutionsSeen', [])); }

  // A new deal starts at once, on the page: the server learns of it through the link
  // (at once when reachable, later otherwise). Only "deals that can be won" need the
  // server first: it alone knows which deals are certified.
  /** @param {{number?: number | null, daily?: boolean}} which */
  async function newDeal({ number = null, daily = false }) {
    if (s.busy) return;
    if (wantsWinnable({ winnableOnly: s.winnableOnly, passes: s.passes, number, daily })) {
      s.busy = true;
      page.changed();
      try {
        const answer = await api.newGrip({ winnable: true });
        s.busy = false;
        // a new game's answer always has its deal number (sessions.py `new` picks one)
        follow(recordOf(newGame(/** @type {number} */ (answer.number), null)),
          { id: answer.id, token: answer.token, meta: { winnable: true, par: answer.par, used_hint: false } });
        sound('draw');
        return;
      } catch (err) {
        s.busy = false;
        if (/** @type {RequestFailure} */ (err).status !== 0) { toast(errorText(err), 'warn'); page.changed(); return; }
        toast(t('grip.winnableOffline'), 'warn'); // a random deal instead, below
      }
    }
    const chosen = dealNumber({ number, daily }, { today: () => todaysDailyNumber(), random: () => randomDealNumber() });
    follow(recordOf(newGame(chosen, s.passes)), { daily });
    sound('draw');
  }

  // A finished deal counts in the statistics once, when the server has checked it, with
  // its par when the server has it.
  function maybeRecord() {
    const result = replayer.current() || !verified() ? null : resultOf(s.game);
    if (!result) return;
    if (result.par === null && !s.parFailed) return; // recorded when the par arrives
    store.recordGripResult(result);
    s.recorded += 1; // the statistics are drawn again with this result
  }

  /** @param {string} id */
  async function fetchPar(id) {
    s.parFailed = false;
    const following = () => { const followed = saved(); return Boolean(followed && followed.id === id); };
    const outcome = await fetchParWithRetries({
      ask: () => api.gripPar(id, /** @type {SavedGame} */ (saved()).token),
      following,
      wanted: () => !s.destroyed && following(),
      sleep,
    });
    if (outcome.kind === 'par') {
      const followed = /** @type {SavedGame} */ (saved());
      s.meta = { ...s.meta, par: outcome.par };
      followed.meta = { ...followed.meta, par: outcome.par };
      store.setGripGame(followed);
      s.game = view(/** @type {LocalGame} */ (s.local), id);
      maybeRecord();
      page.changed();
    } else if (outcome.kind === 'failed' && following() && s.meta.par == null) {
      s.parFailed = true;
      maybeRecord();
      page.changed();
    }
  }

  // ---- hints and solutions: the server's, asked without blocking play -----------------
  async function askHint() {
    if (!s.local || finished() || replayer.current() || finishing()) return false;
    if (!link.online()) { toast(t('grip.waitsForConnection')); return false; }
    const asked = s.local;
    s.hintAsked = asked;
    page.changed();
    /** @type {SavedGame} */
    let followed = /** @type {SavedGame} */ (saved());
    const outcome = await requestHint({
      idle: () => link.idle(),
      stillAsked: () => s.local === asked && !s.destroyed,
      pacer: hintPacer,
      sleep,
      // asked only once the link is idle with every operation sent: the server has the game
      ask: () => {
        followed = /** @type {SavedGame} */ (saved());
        return api.gripOp(/** @type {string} */ (followed.id), followed.token, { op: 'hint' });
      },
    });
    if (outcome.kind === 'stale') return false; // the player moved on: no hint for an old position
    if (outcome.kind === 'unsent') { s.hintAsked = null; page.changed(); toast(t('grip.waitsForConnection')); return false; }
    if (outcome.kind === 'failed') {
      if (s.local === asked) { s.hintAsked = null; page.changed(); }
      const status = outcome.error.status;
      const kind = hintFailure(status);
      if (kind === 'quiet') return false; // the game moved on meanwhile
      if (kind === 'offline') link.reachable(false);
      toast(kind === 'busy' ? t('grip.busy') : kind === 'offline' ? t('grip.waitsForConnection') : errorText(outcome.error), 'warn');
      return false;
    }
    const answer = outcome.answer;
    s.hintAsked = null;
    s.meta = withHint(s.meta, answer);
    followed.meta = { ...followed.meta, used_hint: answer.used_hint };
    store.setGripGame(followed);
    const shown = view(asked, followed.id);
    s.game = shown;
    page.changed();
    page.shown(shown);
    const info = shown.hint_info;
    page.announce(shown.hint
      ? `${hintText(shown.hint, t)} ${info ? t('grip.hintExpect', { n: Math.round(info.expected_score) }) : ''}`
      : t('grip.noHint'));
    if (!shown.hint) toast(t('grip.noHint'));
    return true;
  }

  async function showSolution() {
    if (!s.game || s.busy) return;
    s.busy = true;
    page.changed();
    try {
      await link.idle();
      const followed = /** @type {SavedGame} */ (saved());
      // the solution is offered for certified deals only, dealt by the server: the game has an id
      const answer = await api.gripSolution(/** @type {string} */ (followed.id), followed.token);
      s.busy = false;
      // Aided from now on (the server marked it so), and so is this deal started again by number.
      s.meta = { ...s.meta, used_hint: true };
      const now = saved();
      if (now) now.meta = { ...now.meta, used_hint: true };
      s.game = { .../** @type {GripAnswer} */ (s.game), used_hint: true };
      store.setPref('gripSolutionsSeen', withSolutionSeen(solutionsSeen(), answer.number));
      replayer.start(answer);
      page.cleared();
      page.changed();
    } catch (err) {
      s.busy = false;
      toast(/** @type {RequestFailure} */ (err).status === 0 ? t('grip.waitsForConnection') : errorText(err), 'warn');
      page.changed();
    }
  }

  // ---- auto-finish ------------------------------------------------------------------
  // Right after every new position: a line proven from the position before still wins
  // when the player played its first action (offered again at once); otherwise the
  // search starts at once, in slices, and is dropped if the player moves on first. An
  // offer already shown stays drawn while the search runs (the button neither blinks
  // nor shifts the bar's buttons under the pointer), and goes if the win is not proven.
  // Called by show(), which draws the page next.
  function scheduleFinishCheck() {
    prover.stop();
    if (finishing()) return;
    const at = s.local;
    const before = s.finishFrom;
    const line = s.finishLine;
    const wasOffered = Boolean(line) || s.finishRecheck;
    s.finishLine = null;
    s.finishFrom = null;
    s.finishRecheck = false;
    s.finishAsked = false; // a press was for the position it was made in
    if (!at) return;
    const rest = line && before ? lineAfter(current(before), line, current(at)) : null;
    if (rest && rest.length) {
      s.finishLine = rest;
      s.finishFrom = at;
      return;
    }
    s.finishRecheck = wasOffered;
    prover.start(searchWinningLine(current(at)), (found) => {
      const asked = s.finishAsked;
      s.finishRecheck = false;
      s.finishAsked = false;
      if (s.local !== at || s.destroyed || finishing()) return;
      if (!found || !found.length) {
        if (wasOffered) page.changed();
        return;
      }
      s.finishLine = found;
      s.finishFrom = at;
      if (asked) { autoFinish(); return; }
      if (!wasOffered) page.announce(t('grip.finishOffer'));
      page.changed();
    });
  }

  function autoFinish() {
    if (finishing()) return;
    if (!s.finishLine) {
      if (s.finishRecheck) s.finishAsked = true; // pressed while the new position is searched
      return;
    }
    const line = s.finishLine;
    s.finishLine = null;
    s.finishFrom = null;
    page.drop();
    finisher.start(line, {
      play: (action) => op({ op: 'action', action, fromFinish: true }),
      alive: () => !s.destroyed,
      changed: () => page.changed(),
    });
    page.changed();
  }

  function stopFinishing() {
    finisher.stop();
    prover.stop();
    s.finishLine = null;
    s.finishFrom = null;
    s.finishRecheck = false;
    s.finishAsked = false;
  }

  return {
    // read by the input and the drawing
    game: () => s.game,
    state: st,
    finished,
    finishing,
    legal,
    pile,
    screen,
    destroyed: () => s.destroyed,
    // what the player does
    op,
    endDeal,
    newDeal,
    askHint,
    showSolution,
    autoFinish,
    retry: () => link.retry(),
    /** @param {number | null} value */
    setPasses: (value) => { s.passes = value; store.setPref('gripPasses', s.passes); },
    /** @param {boolean} checked */
    setWinnable: (checked) => { s.winnableOnly = checked; store.setPref('gripWinnable', s.winnableOnly); },
    winnableOnly: () => s.winnableOnly,
    replayer,
    load,
    destroy() {
      s.destroyed = true;
      stopFinishing();
      link.close();
      replayer.pause();
    },
  };
}
