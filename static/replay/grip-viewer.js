// A finished Devil's Grip game watched again, /grip/replay/{id}: the grid,
// the stock and the talon as the Grip page draws them (grip-panels.js), every move in
// order at a steady pace (Devil's Grip records keep no times: grip-replay-model.js), a
// scrubber, steps back and forward, a speed.
//
// Only the browser that played the game may watch it, by the server's rule for every
// Grip request: the game's token (storage.js keeps the token of each game played here,
// listGripPlayed) sent to GET /api/grip/{id}/sync, which answers 404 to anyone else.
// The positions are made here from the record that answer carries, with the page's own
// rules (docs/architecture.md, "Replays of Devil's Grip games", says why not by the server).

import { h, replaceChildren, setText, toast } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api, ApiError } from '../common/api.js';
import { getGripGame, listGripPlayed } from '../common/storage.js';
import { flyFrom } from '../cards/input.js';
import { createTop, createGrid } from '../grip/grip-panels.js';
import { CELLS, stepText, ratingText } from '../grip/grip-model.js';
import { gripPositions, gripDelayMs, endsAsServer, outcomeOf } from './grip-replay-model.js';
import { SPEEDS } from './replay-steps.js';

const EVERY_CELL = Array.from({ length: CELLS }, (_, c) => c); // a step may change any cell: each is compared with what it shows
import { createPlayer } from './replay-player.js';
import { createControls } from './replay-controls.js';

/** @typedef {import('../grip/grip-model.js').GripSyncAnswer} GripSyncAnswer */
/** @typedef {import('../grip/grip-model.js').GripView} GripView */
/** @typedef {import('./grip-replay-model.js').GripPositions} GripPositions */
/** @typedef {import('./replay-player.js').ReplayPlayer} ReplayPlayer */

/**
 * What the app's router gets from a page.
 * @typedef {{ title: () => string, rerender: () => void, keys: () => [string, [string, string][]][], destroy: () => void }} MountedPage
 */

// The token this browser keeps for game `id`: a game it played, or the one in progress.
/**
 * @param {string} id
 * @returns {{ token: string, daily: boolean } | null}
 */
function tokenFor(id) {
  const kept = listGripPlayed().find((g) => g.id === id);
  if (kept) return { token: kept.token, daily: Boolean(kept.daily) };
  const current = getGripGame();
  return current && current.id === id && current.token ? { token: current.token, daily: Boolean(current.daily) } : null;
}

/**
 * @param {HTMLElement} container
 * @param {{ id: string, navigate: (path: string) => void }} options
 * @returns {MountedPage}
 */
export function mount(container, { id, navigate }) {
  const own = tokenFor(id);
  const el = h('div', { class: 'grip replaying grip-watch' }, h('p', { class: 'note', role: 'status', text: t('replay.loading') }));
  container.append(el);
  /** @type {{ rerender: () => void, destroy: () => void } | null} */
  let viewer = null;
  let destroyed = false;
  /** @type {number | null} */
  let number = null; // the game's deal number, once loaded (the page's title)

  const toGrip = () => h('a', { href: '/grip', class: 'button secondary', id: 'grip-watch-back',
    onclick: (e) => { e.preventDefault(); navigate('/grip'); } }, t('gripReplay.toGrip'));

  async function load() {
    try {
      const answer = await api.gripSync(id, own ? own.token : null);
      if (destroyed) return;
      // a deal without a number cannot be dealt again: deal() throws, and the page says
      // the replay failed
      const positions = gripPositions(/** @type {GripSyncAnswer & { number: number }} */ (answer));
      number = answer.number;
      document.title = t('gripReplay.title', { n: number });
      viewer = showGame(el, answer, positions, { daily: Boolean(own && own.daily), toGrip });
    } catch (err) {
      if (destroyed) return;
      replaceChildren(el, h('section', { class: 'panel replay-missing grip-watch-missing' },
        h('h1', { text: t('replay.titleShort') }),
        h('p', { text: err instanceof ApiError && err.status === 404 ? t('gripReplay.none') : t('replay.failed') }),
        toGrip()));
    }
  }
  load();

  return {
    title: () => (number === null ? t('replay.titleShort') : t('gripReplay.title', { n: number })),
    rerender: () => { if (viewer) viewer.rerender(); },
    keys: () => [[t('replay.titleShort'), [
      [t('keys.space'), t('replay.play')], ['← / →', t('gripReplay.stepKeys')], ['Home / End', t('gripReplay.endsKeys')],
    ]]],
    destroy() {
      destroyed = true;
      if (viewer) viewer.destroy();
      el.remove();
    },
  };
}

/**
 * @param {HTMLElement} el
 * @param {GripSyncAnswer} answer
 * @param {GripPositions} positions
 * @param {{ daily: boolean, toGrip: () => HTMLElement }} options
 */
function showGame(el, answer, positions, { daily, toGrip }) {
  const { views, actions } = positions;
  const last = views.length - 1;
  const agrees = endsAsServer(positions, answer.state);
  let at = 0; // the position drawn
  /** @type {ReplayPlayer | null} */
  let player = null;
  // made below, before anything is drawn or any control can be used
  const thePlayer = () => /** @type {ReplayPlayer} */ (player);

  const heading = h('h1', { class: 'replay-title' });
  const back = toGrip(); // its words follow the language, as the rest of the header's
  const outcome = h('p', { class: 'grip-watch-outcome', id: 'grip-watch-outcome' });
  const info = h('div', { class: 'grip-info' });
  const { playBtn, backBtn, fwdBtn, scrub, scrubLabel, clock, speedSel, speedLabel } = createControls(last, thePlayer);
  const copyBtn = h('button', { type: 'button', class: 'secondary', id: 'replay-copy', onclick: async () => {
    const link = `${location.origin}/grip/replay/${answer.id}`;
    try { await navigator.clipboard.writeText(link); toast(t('replay.copied')); } catch { toast(link); }
  } });
  const moveLine = h('p', { class: 'note grip-watch-move', id: 'grip-watch-move' });
  const status = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const differs = agrees ? null : h('p', { class: 'grip-sync refused', id: 'grip-watch-differs', role: 'status' });
  const top = h('div', { class: 'grip-top' });
  const grid = h('div', { class: 'grip-grid', role: 'group' });
  const controls = h('section', { class: 'panel replay-controls grip-watch-controls', 'aria-labelledby': 'grip-watch-controls-title' },
    h('h2', { class: 'sr-only', id: 'grip-watch-controls-title' }),
    h('div', { class: 'replay-buttons' }, backBtn, playBtn, fwdBtn, clock),
    scrubLabel, scrub,
    h('div', { class: 'replay-options' }, h('span', { class: 'field' }, speedLabel, speedSel), copyBtn),
    moveLine);
  replaceChildren(el,
    h('header', { class: 'grip-bar grip-watch-head' }, h('div', null, heading, outcome), info, back),
    h('div', { class: 'grip-summary-area' }, differs, controls),
    top, h('div', { class: 'grip-board' }, grid), status);
  const drawTop = createTop(top, { onDeal: () => {} });
  const drawGrid = createGrid(grid);
  const game = { number: answer.number }; // what the panels need to know there is a game

  function words() {
    setText(heading, t(daily ? 'gripReplay.headingDaily' : 'gripReplay.heading', { n: answer.number }));
    setText(back, t('gripReplay.toGrip'));
    const end = views[last];
    setText(outcome, t(`gripReplay.outcome.${outcomeOf(end)}`, { n: end.score }));
    playBtn.textContent = thePlayer().playing() ? t('replay.pause') : t('replay.play');
    backBtn.textContent = `‹ ${t('replay.back')}`;
    fwdBtn.textContent = `${t('replay.forward')} ›`;
    copyBtn.textContent = t('replay.copy');
    setText(scrubLabel, t('gripReplay.position'));
    setText(speedLabel, t('replay.speed'));
    setText(/** @type {HTMLHeadingElement} */ (controls.querySelector('h2')), t('gripReplay.controls'));
    grid.setAttribute('aria-label', t('grip.grid'));
    if (differs) setText(differs, t('gripReplay.differs'));
    const speed = thePlayer().speed();
    replaceChildren(speedSel, SPEEDS.map((s) => h('option', { value: String(s), selected: s === speed, text: `×${s}` })));
  }

  /** @param {GripView} s */
  function drawInfo(s) {
    const passText = s.passes_allowed === null || s.passes_allowed === undefined
      ? t('grip.passesUnlimited', { used: s.passes_used }) : t('grip.passes', { used: s.passes_used, allowed: s.passes_allowed });
    const rating = ratingText(s, t);
    replaceChildren(info,
      h('span', { class: 'score', id: 'grip-score' }, t('grip.score'), ' ', h('strong', { text: String(s.score) }),
        rating ? h('span', { class: `rating rating-${String(s.rating).toLowerCase()}`, text: rating }) : null),
      h('span', { class: 'passes', text: passText }),
      answer.used_undo ? h('span', { class: 'tag', title: t('grip.undoNote'), text: t('grip.undoUsed') }) : null,
      answer.used_hint ? h('span', { class: 'tag hint-tag', title: t('grip.hintNote'), text: t('grip.hintUsed') }) : null);
  }

  /** @param {number} i */
  function moveWords(i) {
    if (i === 0) return t('gripReplay.start');
    const action = actions[i - 1];
    return action.type === 'end' ? t('gripReplay.stepEnd') : stepText(action, t);
  }

  function draw() {
    const state = views[at];
    const moved = at ? actions[at - 1] : null;
    const v = { game, state, legal: [], busy: false, hint: null, moved, finished: true };
    drawTop(v);
    drawGrid(v, EVERY_CELL);
    // the panels draw piles to play on; here they are only shown: pictures, not buttons
    for (const pile of el.querySelectorAll('.grip-grid .cell, #grip-talon')) {
      pile.setAttribute('role', 'img');
      pile.removeAttribute('tabindex');
      pile.removeAttribute('aria-keyshortcuts');
    }
    drawInfo(state);
    scrub.value = String(at);
    const of = { i: String(at), n: String(last) };
    scrub.setAttribute('aria-valuetext', t('gripReplay.stepOf', of));
    setText(clock, t('gripReplay.stepOf', of));
    setText(moveLine, moveWords(at));
    backBtn.disabled = at === 0;
    fwdBtn.disabled = at === last;
    el.dataset.at = String(at);
  }

  /** @param {number} c */
  const cardsIn = (c) => [.../** @type {NodeListOf<HTMLElement>} */ (grid.querySelectorAll(`[data-cell="${c}"] [data-card]`))];
  /** @param {Element[]} nodes */
  const rects = (nodes) => nodes.map((n) => n.getBoundingClientRect());

  // Where the cards of the move into position `i` start, read before it is drawn, and
  // a function that flies them there once it is (Web Animations of transform: they stop).
  /** @param {number} i */
  function flightOf(i) {
    const a = actions[i - 1];
    /** @type {DOMRect[]} */
    let from = [];
    /** @type {() => HTMLElement[]} */
    let to = () => [];
    if (a.type === 'move') {
      from = rects(cardsIn(a.src).slice(-a.count));
      to = () => cardsIn(a.dst).slice(-a.count);
    } else if (a.type === 'talon') {
      from = rects([...top.querySelectorAll('#grip-talon [data-card]')].slice(-1));
      to = () => cardsIn(a.dst).slice(-1);
    } else if (a.type === 'swap') {
      const [pa, pb] = [cardsIn(a.a), cardsIn(a.b)];
      from = [...rects(pa), ...rects(pb)];
      to = () => [...cardsIn(a.b), ...cardsIn(a.a)];
    } else if (a.type === 'deal') {
      const stock = top.querySelector('#grip-stock');
      from = stock ? [stock.getBoundingClientRect()] : [];
      to = () => [.../** @type {NodeListOf<HTMLElement>} */ (top.querySelectorAll('#grip-talon [data-card]'))].slice(-1);
    }
    const ms = Math.min(320, 260 / thePlayer().speed() + 60);
    return () => to().forEach((node, k) => flyFrom(node, from[k], ms));
  }

  player = createPlayer({
    count: views.length,
    waitMs: (i, speed) => gripDelayMs(i, views.length, speed),
    show(i, animate) {
      const fly = animate && i > 0 ? flightOf(i) : () => {};
      at = i;
      draw();
      fly();
    },
    onPlaying: (playing) => { playBtn.textContent = playing ? t('replay.pause') : t('replay.play'); },
    onStep: (i) => setText(status, `${t('gripReplay.stepOf', { i: String(i), n: String(last) })}. ${moveWords(i)}`),
  });

  words();
  draw();

  return {
    rerender() { words(); draw(); },
    destroy: () => thePlayer().destroy(),
  };
}
