// The replay viewer, /replay/{CODE}/{id}: a finished Demon or Nerts round watched again.
// The server replays the round's record through the engine and sends every frame; this
// page keeps the tables they make (replay-model.js) and draws them, one seat's layout
// large and the others small: Demon's with the Demon table's own panels (demon-panels.js),
// Nerts' with nerts-seats.js; the foundations with the Demon table's for both.
// A scrubber, steps back and forward, a speed, and play at the round's real pace.
//
// Who may watch is the server's rule: the browser shows the seat token it keeps for the
// room (storage.js getRoomCreds), which only the round's players have, unless the host
// shared the round with anyone holding the link. `/replay/{CODE}/last` opens the room's
// newest round (the results screen's link) and puts its real id in the address.

import { h, replaceChildren, toast, formatClock, setText } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api, ApiError } from '../common/api.js';
import { getRoomCreds } from '../common/storage.js';
import { flyFrom } from '../cards/input.js';
import { createOpponents, createFoundations, createMinePanel } from '../demon/demon-panels.js';
import { buildTables, tableTimes, delayMs, playsInto, viewerState, SPEEDS } from './replay-model.js';
import { createPlayer } from './replay-player.js';
import { createControls } from './replay-controls.js';
import { createNertsSeats } from './nerts-seats.js';
import { gameOf, gameLine, formatScore, reasonText } from '../racing/game-options.js';

/** @typedef {import('./replay-model.js').DemonReplay} DemonReplay */
/** @typedef {import('./replay-model.js').ReplaySummary} ReplaySummary */
/** @typedef {import('./replay-player.js').ReplayPlayer} ReplayPlayer */
/** @typedef {import('./grip-viewer.js').MountedPage} MountedPage */

/**
 * @param {HTMLElement} container
 * @param {{ code: string, id: string, navigate: (path: string) => void }} options `id` 'last': the room's newest round
 * @returns {MountedPage}
 */
export function mount(container, { code, id, navigate }) {
  const creds = getRoomCreds(code);
  const token = creds ? creds.token : null;
  const el = h('div', { class: 'replay' }, h('p', { class: 'note', role: 'status', text: t('replay.loading') }));
  container.append(el);
  /** @type {{ rerender: () => void, destroy: () => void } | null} */
  let viewer = null;
  let destroyed = false;
  let title = t('replay.titleShort');

  async function load() {
    try {
      let replayId = id;
      if (id === 'last') {
        const list = await api.replays(code, token);
        if (!list.replays.length) throw new ApiError(404, 'none');
        replayId = list.replays[0].id;
        history.replaceState(null, '', `/replay/${code}/${replayId}`);
      }
      const replay = await api.replay(replayId, token);
      const rounds = token ? (await api.replays(code, token)).replays : [];
      if (destroyed) return;
      title = t('replay.title', { code, n: replay.round_no });
      document.title = title;
      viewer = showReplay(el, replay, { code, token, rounds, navigate });
    } catch (err) {
      if (destroyed) return;
      replaceChildren(el, h('section', { class: 'panel replay-missing' },
        h('h1', { text: t('replay.titleShort') }),
        h('p', { id: 'replay-error', text: err instanceof ApiError && err.status === 404 ? t('replay.none')
          : err instanceof ApiError && err.status === 403 ? t('daily.closed') : t('replay.failed') }), // 403: today's daily race
        h('a', { href: '/', class: 'button secondary', onclick: (e) => { e.preventDefault(); navigate('/'); } },
          t('room.backHome'))));
    }
  }
  load();

  return {
    title: () => title,
    rerender: () => { if (viewer) viewer.rerender(); },
    keys: () => [[t('replay.titleShort'), [
      [t('keys.space'), t('replay.play')], ['← / →', t('replay.stepKeys')], ['Home / End', t('replay.endsKeys')],
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
 * @param {DemonReplay} replay
 * @param {{ code: string, token: string | null, rounds: ReplaySummary[], navigate: (path: string) => void }} options
 */
function showReplay(el, replay, { code, token, rounds, navigate }) {
  const tables = buildTables(replay);
  const times = tableTimes(replay.frames);
  const last = tables.length - 1;
  let at = 0; // the table drawn
  /** @type {ReplayPlayer | null} */
  let player = null;
  // made below, before anything is drawn or any control can be used
  const thePlayer = () => /** @type {ReplayPlayer} */ (player);
  let big = (replay.players.find((p) => p.bot === null) || replay.players[0] || { seat: 0 }).seat;

  const nerts = gameOf(replay) === 'nerts';
  const heading = h('h1', { class: 'replay-title' });
  const gameNote = h('p', { class: 'replay-game', id: 'replay-game' });
  const { playBtn, backBtn, fwdBtn, scrub, scrubLabel, clock, speedSel, speedLabel } = createControls(last, thePlayer);
  const bigSel = h('select', { id: 'replay-large', onchange: (e) => { big = Number(e.currentTarget.value); draw(); } });
  const bigLabel = h('label', { for: 'replay-large' });
  const roundNav = h('nav', { class: 'replay-rounds' });
  const shareBox = h('div', { class: 'replay-share' });
  const status = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  // A tab stop of its own: on a wide screen the other players' column scrolls when it
  // overflows (style.css), and a replay's panels hold nothing else a key can reach.
  const opponents = h('section', { class: 'opponents', tabindex: '0' });
  const foundations = h('section', { class: 'foundations' });
  const mine = h('section', { class: 'mine' });
  const ending = h('div', { class: 'replay-ending' });
  const controls = h('div', { class: 'replay-controls panel' },
    h('div', { class: 'replay-buttons' }, backBtn, playBtn, fwdBtn, clock),
    scrubLabel, scrub,
    h('div', { class: 'replay-options' }, h('span', { class: 'field' }, speedLabel, speedSel),
      h('span', { class: 'field' }, bigLabel, bigSel)));
  const table = h('div', { class: `table replay-table${nerts ? ' nerts-replay' : ''}` }, opponents, foundations, mine);
  replaceChildren(el, h('header', { class: 'replay-head' }, heading, gameNote, roundNav, shareBox), controls, table, ending, status);

  const foundationPiles = createFoundations(foundations);
  // the seats: Demon's with the table's own panels, Nerts' drawn here (nerts-seats.js)
  const seats = nerts ? createNertsSeats(mine, opponents) : (() => {
    const opponentPanels = createOpponents(opponents);
    const minePanel = createMinePanel(mine, { onDraw: () => {} });
    return { draw: (/** @type {import('../demon/demon-panels.js').TableView} */ v) => { opponentPanels.draw(v); minePanel.draw(v); } };
  })();

  function words() {
    setText(heading, t('replay.heading', { n: replay.round_no, code }));
    setText(gameNote, gameLine(replay, t));
    playBtn.textContent = thePlayer().playing() ? t('replay.pause') : t('replay.play');
    backBtn.textContent = `‹ ${t('replay.back')}`;
    fwdBtn.textContent = `${t('replay.forward')} ›`;
    setText(scrubLabel, t('replay.position'));
    setText(speedLabel, t('replay.speed'));
    setText(bigLabel, t('replay.large'));
    opponents.setAttribute('aria-label', t('table.opponents'));
    foundations.setAttribute('aria-label', t('table.foundations'));
    const speed = thePlayer().speed();
    replaceChildren(speedSel, SPEEDS.map((s) => h('option', { value: String(s), selected: s === speed, text: `×${s}` })));
    replaceChildren(bigSel, replay.players.map((p) => h('option', { value: String(p.seat), selected: p.seat === big, text: p.name })));
    replaceChildren(roundNav, rounds.length > 1 ? [h('span', { text: t('replay.otherRounds') }), ' ',
      ...rounds.slice().reverse().map((r) => (r.id === replay.id
        ? h('span', { class: 'current', 'aria-current': 'page', text: t('replay.roundN', { n: r.round_no }) })
        : h('a', { href: `/replay/${code}/${r.id}`, onclick: (e) => { e.preventDefault(); navigate(`/replay/${code}/${r.id}`); },
          text: t('replay.roundN', { n: r.round_no }) })))] : []);
    drawShare();
  }

  function drawShare() {
    const link = `${location.origin}/replay/${code}/${replay.id}`;
    replaceChildren(shareBox,
      replay.may_share ? h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'replay-shared', checked: replay.shared,
        onchange: async (e) => {
          const box = e.currentTarget; // (e.currentTarget is gone once the event has been handled)
          try {
            replay.shared = (await api.shareReplay(replay.id, token, box.checked)).shared;
          } catch {
            box.checked = replay.shared;
            toast(t('replay.failed'), 'warn');
          }
        } }), ' ', t('replay.shareAnyone')) : null,
      h('button', { type: 'button', class: 'secondary', id: 'replay-copy', onclick: async () => {
        try { await navigator.clipboard.writeText(link); toast(t('replay.copied')); } catch { toast(link); }
      } }, t('replay.copy')));
  }

  function draw() {
    const round = tables[at];
    const state = viewerState(replay, round);
    const v = { state, round, seat: big, legal: [], canAct: false, you: null, timeEnd: null, isHost: false };
    seats.draw(v);
    foundationPiles.draw(v);
    scrub.value = String(at);
    const n = String(at);
    const of = String(last);
    scrub.setAttribute('aria-valuetext', t('replay.stepOf', { i: n, n: of }));
    setText(clock, `${formatClock(times[at] * 1000)} / ${formatClock(times[last] * 1000)} · ${t('replay.stepOf', { i: n, n: of })}`);
    backBtn.disabled = at === 0;
    fwdBtn.disabled = at === last;
    el.dataset.at = n;
    drawEnding();
  }

  function drawEnding() {
    if (at !== last || !replay.end) {
      replaceChildren(ending);
      return;
    }
    const end = replay.end;
    const winner = replay.players.find((p) => p.seat === end.winner);
    // a round its person let the bots finish ends by the bots' votes: said as the results said it
    const reason = reasonText(end.reason, winner ? winner.name : null, t, Boolean(replay.bots_finish));
    const order = replay.players.slice().sort((a, b) => b.score - a.score);
    replaceChildren(ending, h('section', { class: 'panel results', id: 'replay-results', 'aria-labelledby': 'replay-results-title' },
      h('h2', { id: 'replay-results-title', text: t('result.roundOver', { n: replay.round_no }) }),
      h('p', { class: 'reason', text: reason }),
      h('table', { class: 'score-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('result.player') }),
          h('th', { scope: 'col', text: t('result.thisRound') }))),
        h('tbody', null, order.map((p) => h('tr', null, h('th', { scope: 'row', text: p.name }),
          h('td', { text: formatScore(p.score) })))))));
  }

  // Where the card of each play of the next table starts, read before it is drawn.
  /** @param {number} i */
  function sourcesOf(i) {
    return playsInto(replay, i).map((p) => {
      /** @type {Element | null} */
      let node = null;
      if (nerts) {
        const panel = (p.seat === big ? mine : opponents).querySelector(`[data-seat="${p.seat}"]`);
        node = panel ? panel.querySelector(`[data-src="${p.src}"] .card:last-child`) : null;
      } else if (p.seat === big) {
        node = mine.querySelector(p.src === 'waste' ? '[data-pick="w"], .waste .card:last-child'
          : `[data-src="${p.src}"] .card:last-child`);
      } else {
        const panel = opponents.querySelector(`[data-seat="${p.seat}"]`);
        node = panel ? panel.querySelector(`[data-src="${p.src}"]`) : null;
      }
      return { pile: p.pile, from: node ? node.getBoundingClientRect() : null };
    });
  }

  player = createPlayer({
    count: tables.length,
    waitMs: (i, speed) => delayMs(times, i, speed),
    show(i, animate) {
      const flights = animate ? sourcesOf(i) : [];
      at = i;
      draw();
      for (const f of flights) {
        const node = /** @type {HTMLElement | null} */ (foundations.querySelector(`[data-fpile="${f.pile}"] .card`));
        if (node && f.from) flyFrom(node, f.from, Math.min(400, 300 / thePlayer().speed() + 80));
      }
    },
    onPlaying: (playing) => { playBtn.textContent = playing ? t('replay.pause') : t('replay.play'); },
    onStep: (i) => setText(status, t('replay.stepOf', { i: String(i), n: String(last) })),
  });

  // Your layout's card size follows the room below it, as at the table (table.js fitMine).
  function fitMine() {
    const top = mine.getBoundingClientRect().top + window.scrollY;
    mine.style.setProperty('--mine-room', `${Math.max(0, Math.floor(window.innerHeight - top - 14))}px`);
  }
  window.addEventListener('resize', fitMine);

  words();
  draw();
  fitMine();

  return {
    rerender() { words(); draw(); },
    destroy() {
      thePlayer().destroy();
      window.removeEventListener('resize', fitMine);
    },
  };
}
