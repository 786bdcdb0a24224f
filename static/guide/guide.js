// The first-round guide: a small coach bubble that points at the next useful move and
// says why in one sentence, for a few moves, then gets out of the way. Shown once per
// game (remembered in the browser's preferences), skippable, and opened again from the
// rules dialog ("Show me again").
//
// The move always comes from the server: in Devil's Grip the page's own hint request
// (POST /api/grip/{id} op "hint", whose `hint_info.why` says why), at a Demon practice
// table the `coach` message (answered only where every other seat is a bot). The
// pure part (steps, what to point at, the words) is guide-model.js; this module draws
// the bubble and the highlights over the page's own marks (data-target, data-pick).

import { h, setText, setHidden } from '../common/dom.js';
import { t, onLangChange } from '../common/i18n.js';
import { cardText, rankLabel } from '../cards/cards.js';
import { getPref, setPref } from '../common/storage.js';
import * as G from './guide-model.js';

// The Devil's Grip guide shows on a first visit; the Demon coach only where it was
// asked for (markGuidedRoom), so only Devil's Grip's is remembered as seen.
/** @typedef {import('./guide-model.js').Guide} Guide */
/** @typedef {import('./guide-model.js').Marks} Marks */
/** @typedef {import('./guide-model.js').Advice} Advice */
/** @typedef {import('../grip/grip-model.js').GripAnswer} GripAnswer */

/** @type {{ grip: 'guideGrip' }} */
const PREFS = { grip: 'guideGrip' };
/** @param {string} c */
const card = (c) => cardText(c);
/** @param {string} r */
const rank = (r) => rankLabel(`${r}S`);

/**
 * @param {'grip'} game
 * @returns {boolean}
 */
export function guideSeen(game) {
  return getPref(PREFS[game], false) === true;
}

/** @param {'grip'} game */
function markSeen(game) {
  setPref(PREFS[game], true);
}

// A practice room opened with "Practice round with a guide": its coach shows even when
// the guide was seen before (the player asked for it).
/** @param {string} code */
export function markGuidedRoom(code) {
  setPref('guideRoom', code);
}

// What the rules dialog offers as "Show me again": the guide of the page on show, if any.
/** @type {{ run: () => void } | null} */
let reopener = null;
export function guideReopener() {
  return reopener;
}

// ---- the bubble and the highlights ------------------------------------------------------

/**
 * What the bubble shows: a heading and words, the step ("2 of 4"), the primary button's
 * label (none: no button), the marks to ring, a selector of what to sit next to, and
 * `room`: a selector of a part of the page to move down by the bubble's height, the
 * bubble sitting in the room made (where no free space is big enough for it).
 * @typedef {{ heading: string, words: string, stepText?: string, go?: string | null, marks?: Marks, anchor?: string | null,
 *   room?: string | null }} BubbleContent
 */
/** @typedef {{ show: (what: BubbleContent) => void, hide: () => void, destroy: () => void }} Bubble */
/** @typedef {{ onPrimary: () => void, onSkip: () => void }} BubbleHandlers */

// The bubble, made the first time it shows: a page whose guide was seen pays nothing.
/**
 * @param {HTMLElement} root
 * @param {BubbleHandlers} handlers
 * @returns {Bubble}
 */
function lazyBubble(root, handlers) {
  /** @type {(Bubble & { el: HTMLElement }) | null} */
  let bubble = null;
  return {
    show(what) {
      if (!bubble) bubble = createBubble(root, handlers);
      bubble.show(what);
    },
    hide() { if (bubble) bubble.hide(); },
    destroy() { if (bubble) bubble.destroy(); bubble = null; },
  };
}

// What the bubble must never cover: whatever the player may pick up or drop on, and on
// the Devil's Grip page the bar's buttons and the "New deal" panel.
const KEEP_CLEAR = '[data-target], [data-pick], #stock, #grip-stock, #grip-talon, #vote-end, #bots-finish, '
  + '.grip-bar button, .grip-new';

/**
 * @param {HTMLElement} root
 * @param {BubbleHandlers} handlers
 * @returns {Bubble & { el: HTMLElement }}
 */
function createBubble(root, { onPrimary, onSkip }) {
  const title = h('strong', { class: 'guide-title' });
  const text = h('p', { class: 'guide-text', 'aria-live': 'polite' });
  const step = h('span', { class: 'guide-step' });
  const primary = h('button', { type: 'button', class: 'primary guide-go', onclick: () => onPrimary() });
  const skip = h('button', { type: 'button', class: 'secondary guide-skip', text: t('guide.skip'), onclick: () => onSkip() });
  const el = h('aside', { class: 'guide-bubble', 'aria-label': t('guide.title'), hidden: true },
    title, text, h('div', { class: 'guide-foot' }, step, primary, skip));
  // Early in the page's order, just after "Skip to the game": a keyboard reaches "Skip
  // guide" in two or three Tabs (at the end of the page it took twenty). Fixed, so where
  // it sits in the page changes nothing on screen.
  document.body.insertBefore(el, document.getElementById('top') || document.body.firstChild);
  /** @type {string | null} */
  let anchorSel = null;
  /** @type {string | null} */
  let roomSel = null;
  /** @type {Marks} */
  let marks = { src: null, dst: null };

  // Painted after every drawing of the table (and the clock's every second): a mark or a
  // position written again unchanged still has the browser recalculate style, and a
  // ring taken off and put back starts its pulse again, so only changes are written.
  function paint() {
    const shown = !el.hidden;
    mark('guide-src', shown && marks.src ? root.querySelector(marks.src) : null);
    mark('guide-dst', shown && marks.dst ? root.querySelector(marks.dst) : null);
    const roomEl = shown && roomSel ? root.querySelector(roomSel) : null;
    makeRoom(roomEl instanceof HTMLElement ? roomEl : null);
    if (shown) place(anchorSel ? root.querySelector(anchorSel) : null, roomEl);
  }

  // The room: the part named moves down by the bubble's height (guide.css .guide-room),
  // so the bubble covers neither it nor what it pushed down; taken back when not needed.
  /** @param {HTMLElement | null} node */
  function makeRoom(node) {
    root.querySelectorAll('.guide-room').forEach((n) => {
      if (n === node || !(n instanceof HTMLElement)) return;
      n.classList.remove('guide-room');
      n.style.removeProperty('--guide-room');
    });
    if (!node) return;
    const room = `${Math.ceil(el.getBoundingClientRect().height) + 20}px`;
    if (node.style.getPropertyValue('--guide-room') !== room) node.style.setProperty('--guide-room', room);
    if (!node.classList.contains('guide-room')) node.classList.add('guide-room');
  }

  /**
   * @param {string} cls
   * @param {Element | null} node
   */
  function mark(cls, node) {
    root.querySelectorAll(`.${cls}`).forEach((n) => { if (n !== node) n.classList.remove(cls); });
    if (node && !node.classList.contains(cls)) node.classList.add(cls);
  }

  /**
   * @param {string} name
   * @param {string} value
   */
  function setStyle(name, value) {
    if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
  }

  // Where it goes: next to what it points at (below, above, right, left), if it covers
  // nothing the player may need there; else the free space nearest to it; else, on a
  // screen with no free space, where it covers least. "Needed" are the page's own marks:
  // every card or pile one can pick up or drop on, and the stock and vote buttons.
  /** @typedef {{ x: number, y: number, side: 'below' | 'above' | 'side' | 'free', area: number, dist: number }} Spot */
  /**
   * @param {Element | null} anchor
   * @param {Element | null} [roomEl] the part moved down to make room: the bubble sits above it
   */
  function place(anchor, roomEl = null) {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const { width: w, height: ht } = el.getBoundingClientRect();
    const clear = [...root.querySelectorAll(KEEP_CLEAR)].map((n) => n.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw);
    const r = anchor ? anchor.getBoundingClientRect() : null;
    const onScreen = r && r.bottom > 0 && r.top < vh && r.width > 0;
    /** @type {(x: number, y: number) => [number, number]} */
    const fit = (x, y) => [Math.min(Math.max(8, x), Math.max(8, vw - w - 8)), Math.min(Math.max(8, y), Math.max(8, vh - ht - 8))];
    /** @type {(x: number, y: number) => number} */
    const covered = (x, y) => {
      let area = 0;
      for (const c of clear) {
        const dx = Math.min(x + w, c.right) - Math.max(x, c.left);
        const dy = Math.min(y + ht, c.bottom) - Math.max(y, c.top);
        if (dx > 0 && dy > 0) area += dx * dy;
      }
      return area;
    };
    const cx = onScreen ? r.left + r.width / 2 : vw / 2;
    const cy = onScreen ? r.top + r.height / 2 : vh;
    /** @type {Spot | null} */
    let best = null;
    // considered at least once before it is read
    const bestSpot = () => /** @type {Spot} */ (best);
    /** @type {(x: number, y: number, side: Spot['side']) => void} */
    const consider = (x, y, side) => {
      const [fx, fy] = fit(x, y);
      const area = covered(fx, fy);
      const dist = Math.hypot(fx + w / 2 - cx, fy + ht / 2 - cy);
      if (!best || area < best.area || (area === best.area && dist < best.dist)) best = { x: fx, y: fy, side, area, dist };
    };
    if (roomEl) {
      const room = roomEl.getBoundingClientRect();
      consider(room.left, room.top - ht - 10, 'free');
      if (bestSpot().area === 0) return put(bestSpot(), r);
    }
    if (onScreen) {
      consider(cx - w / 2, r.bottom + 14, 'below');
      if (bestSpot().area === 0) return put(bestSpot(), r);
      consider(cx - w / 2, r.top - ht - 14, 'above');
      consider(r.right + 14, cy - ht / 2, 'side');
      consider(r.left - w - 14, cy - ht / 2, 'side');
      if (bestSpot().area === 0) return put(bestSpot(), r);
    }
    for (let y = 8; y <= vh - ht - 8 + 23; y += 24) {
      for (let x = 8; x <= vw - w - 8 + 23; x += 24) consider(x, y, 'free');
    }
    return put(bestSpot(), r);
  }

  /**
   * @param {Spot} spot
   * @param {DOMRect | null} r what it points at: there is one when the spot is below or above it
   */
  function put(spot, r) {
    setStyle('top', `${Math.round(spot.y)}px`);
    setStyle('left', `${Math.round(spot.x)}px`);
    const pointing = spot.side === 'below' || spot.side === 'above';
    const at = /** @type {DOMRect} */ (r);
    if (pointing) setStyle('--arrow-x', `${Math.round(at.left + at.width / 2 - spot.x)}px`);
    el.classList.toggle('above', spot.side === 'above');
    el.classList.toggle('free', !pointing);
  }

  // No key closes the guide: Esc is the table's key to put a held card down, and it
  // once ended the guide for good as well. Only the bubble's own "Skip guide" ends it.

  // The page redraws its cards often (replacing the nodes): paint again after each redraw.
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; paint(); });
  });
  observer.observe(root, { childList: true, subtree: true });
  const onResize = () => paint();
  window.addEventListener('resize', onResize);
  // fixed in the window: placed again when the page scrolls under it (a phone's page scrolls)
  const onScroll = () => {
    if (queued || el.hidden) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; paint(); });
  };
  window.addEventListener('scroll', onScroll, { passive: true });

  return {
    el,
    show({ heading, words, stepText = '', go = null, marks: m = { src: null, dst: null }, anchor = null, room = null }) {
      setHidden(el, false);
      if (title.textContent !== heading) title.textContent = heading;
      if (text.textContent !== words) text.textContent = words;
      // shown again after every drawing of the table: only what changed is written (a
      // write, even of the same text, has the browser recalculate style and layout)
      setText(step, stepText);
      setHidden(primary, !go);
      if (go) setText(primary, go);
      setText(skip, t('guide.skip'));
      if (el.getAttribute('aria-label') !== t('guide.title')) el.setAttribute('aria-label', t('guide.title'));
      marks = m;
      anchorSel = anchor;
      roomSel = room;
      paint();
    },
    hide() {
      setHidden(el, true);
      marks = { src: null, dst: null };
      paint();
    },
    destroy() {
      observer.disconnect();
      window.removeEventListener('resize', onResize);
      window.removeEventListener('scroll', onScroll);
      el.hidden = true;
      paint();
      el.remove();
    },
  };
}

// ---- Devil's Grip -------------------------------------------------------------------------

// `ask()` asks the page for a hint (its own request, so the page shows it too) and
// resolves true when an answer came; the page calls `update(game)` with every answer.
/**
 * @param {HTMLElement} root
 * @param {{ ask: () => Promise<boolean> }} page
 */
export function createGripGuide(root, { ask }) {
  /** @type {Guide | null} */
  let g = guideSeen('grip') ? null : G.newGuide('grip');
  /** @type {GripAnswer | null} */
  let game = null;
  /** @type {string | null} */
  let stateKey = null;
  let failed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const bubble = lazyBubble(root, { onPrimary: primary, onSkip: skip });
  reopener = { run: restart };
  const stopLang = onLangChange(() => draw());

  function finished() {
    return !game || Boolean(game.state && (game.state.ended || game.state.over));
  }

  function primary() {
    if (!g) return;
    if (g.phase === 'intro' || (g.phase === 'ask' && failed)) request();
    else if (g.phase === 'done') skip();
  }

  function skip() {
    g = G.finish(g);
    draw();
  }

  function restart() {
    g = G.newGuide('grip');
    stateKey = game ? JSON.stringify(game.state) : null;
    failed = false;
    draw();
  }

  // The page refuses while a request of its own is on its way (or the engine is busy,
  // 503): one more try a moment later, then a button to try again.
  /** @param {boolean} [again] */
  async function request(again = true) {
    clearTimeout(timer);
    if (!G.isOn(g) || finished()) return;
    g = G.ask(g);
    failed = false;
    draw();
    const ok = await ask();
    if (ok || !g || g.phase !== 'ask') return;
    if (again) { timer = setTimeout(() => request(false), 900); return; }
    failed = true;
    draw();
  }

  /** @param {GripAnswer | null} next */
  function update(next) {
    game = next;
    if (!G.isOn(g)) return;
    if (finished()) { if (g.phase !== 'intro') g = G.finish(g); draw(); return; }
    // not finished: there is a game
    const shown = /** @type {GripAnswer} */ (game);
    const key = JSON.stringify(shown.state);
    if (stateKey !== null && key !== stateKey) {
      g = G.moved(g); // a move, an undo, a new deal: one step on
      if (g.phase === 'ask') { clearTimeout(timer); timer = setTimeout(() => request(), 250); }
    }
    stateKey = key;
    if (g.phase === 'ask' && shown.hint_info && G.isLegal(shown.hint, shown.legal)) {
      g = G.advise(g, { action: shown.hint, why: shown.hint_info.why });
    } else if (g.phase === 'ask' && shown.hint_info && !shown.hint) {
      g = G.advise(g, null);
    }
    draw();
  }

  function draw() {
    // "Show me again" on a finished deal waits for the next one
    if (!G.isOn(g) || finished()) { bubble.hide(); return; }
    if (g.phase === 'intro') markSeen('grip');
    const heading = t('guide.gripTitle');
    const stepText = t('guide.step', { n: Math.min(g.step + 1, G.STEPS.grip), total: G.STEPS.grip });
    if (g.phase === 'intro') {
      // no free space beside the grid is big enough for it: it sits at the head of the
      // side column (below the grid on a phone), which moves down to make room
      bubble.show({ heading, words: t('guide.gripIntro'), go: t('guide.showMe'), anchor: '.grip-grid', room: '.grip-side' });
    } else if (g.phase === 'ask') {
      bubble.show({ heading, words: failed ? t('guide.failed') : t('guide.looking'), stepText,
        go: failed ? t('guide.showMe') : null, anchor: '.grip-grid', room: '.grip-side' });
    } else if (g.phase === 'point') {
      // pointing: there is advice, about a Grip move
      const advice = /** @type {{ action?: import('../grip/grip-rules.js').Action | null, why?: import('../grip/grip-model.js').GripHintReason | null }} */ (g.advice);
      const marks = G.gripMarks(advice.action);
      bubble.show({ heading, words: G.gripWhy(advice.why, t, card, rank), stepText, marks, anchor: marks.src });
    } else {
      bubble.show({ heading, words: g.advice === null && g.step < G.STEPS.grip ? t('guide.noMove') : t('guide.gripDone'),
        go: t('guide.gotIt'), anchor: '#grip-hint' });
    }
  }

  return {
    update,
    destroy() {
      clearTimeout(timer);
      stopLang();
      if (reopener && reopener.run === restart) reopener = null;
      bubble.destroy();
    },
  };
}

// ---- Demon practice table -----------------------------------------------------------------

// `model` is the room's model (state, seat, legal, code); `send` sends a socket message.
// The table calls `update()` after each redraw and `onCoach(msg)` with each answer.
/** @type {Map<string, Guide>} */
const keptCoach = new Map(); // room code -> the coach's guide while the table is remounted

/**
 * The part of a Demon seat's view the coach reads.
 * @typedef {{ tableau?: { up: unknown[] }[] }} CoachSeat
 */
/**
 * What the coach reads of the room's model (room-model.js).
 * @typedef {{
 *   code: string,
 *   state: { phase?: string, round?: { seats: CoachSeat[] } | null, players?: { seat?: number | null, bot?: unknown }[] } | null,
 *   seat: number | null | undefined,
 *   legal: readonly object[],
 * }} CoachModel
 */

/**
 * @param {HTMLElement} root
 * @param {{ model: CoachModel, send: (message: { type: 'coach' }) => boolean }} table
 */
export function createDemonCoach(root, { model, send }) {
  /** @type {Guide | null} */
  let g = keptCoach.get(model.code) || null;
  keptCoach.delete(model.code);
  if (g && g.phase === 'point') g = G.ask(g); // ask again about the table as it is now
  /** @type {string | null} */
  let mineKey = null;
  let waiting = false;
  let retries = 0;
  const bubble = lazyBubble(root, { onPrimary: () => skip(), onSkip: () => skip() });
  reopener = null;

  const playing = () => {
    const st = model.state;
    return Boolean(st && st.phase === 'playing' && st.round && model.seat !== null && model.seat !== undefined);
  };
  const practice = () => G.isPracticeTable(model.state, model.seat);
  // while playing (`playing()`), the room has a state with a round and this seat in it
  const table = () => /** @type {NonNullable<CoachModel['state']> & { round: { seats: CoachSeat[] } }} */ (model.state);
  const seat = () => /** @type {number} */ (model.seat);

  function skip() {
    g = G.finish(g);
    draw();
  }

  function restart() {
    g = G.ask(G.newGuide('demon'));
    mineKey = null;
    waiting = false;
    update();
  }

  function request() {
    if (waiting) return;
    waiting = true;
    if (!send({ type: 'coach' })) waiting = false;
  }

  function update() {
    const on = playing() && practice();
    reopener = on ? { run: restart } : null;
    if (!g) {
      // Only where it was asked for: a room opened with "Practice round with a guide"
      // (or "Show me again"). An ordinary game against bots gets no coach.
      if (!on || getPref('guideRoom', null) !== model.code) return;
      setPref('guideRoom', null);
      g = G.ask(G.newGuide('demon'));
    }
    if (!on) {
      if (G.isOn(g) && model.state && model.state.phase !== 'countdown') g = G.finish(g);
      draw();
      return;
    }
    if (!G.isOn(g)) { draw(); return; }
    const me = table().round.seats[seat()];
    const key = JSON.stringify(me);
    if (mineKey !== null && key !== mineKey) { g = G.moved(g); retries = 0; }
    mineKey = key;
    // pointing: there is advice
    if (g.phase === 'point' && /** @type {Advice} */ (g.advice).action && !G.isLegal(/** @type {Advice} */ (g.advice).action, model.legal)) g = G.ask(g);
    if (g.phase === 'ask') request();
    draw();
  }

  /** @param {Advice} msg */
  function onCoach(msg) {
    waiting = false;
    if (!g || g.phase !== 'ask') return;
    if (msg.action && !G.isLegal(msg.action, model.legal)) {
      // the table moved on since it was asked: ask about the table as it is now
      if (retries++ < 3) request();
      return;
    }
    retries = 0;
    g = G.advise(g, msg);
    draw();
  }

  /** @param {{ code?: string } | null | undefined} msg */
  function onError(msg) {
    if (!msg || (msg.code !== 'not_practice' && msg.code !== 'bad_phase')) return;
    waiting = false;
    if (msg.code === 'not_practice') skip();
  }

  function draw() {
    if (!G.isOn(g) || !playing()) { bubble.hide(); return; }
    const heading = t('guide.demonTitle');
    const stepText = t('guide.step', { n: Math.min(g.step + 1, G.STEPS.demon), total: G.STEPS.demon });
    const bots = (table().players || []).filter((p) => p.bot && p.seat !== null && p.seat !== undefined).length;
    const lead = g.step === 0 ? `${t(bots > 1 ? 'guide.demonIntroMany' : 'guide.demonIntro')} ` : '';
    if (g.phase === 'ask') {
      bubble.show({ heading, words: `${lead}${t('guide.looking')}`, stepText, anchor: '.mine' });
    } else if (g.phase === 'point') {
      const me = table().round.seats[seat()];
      // pointing: there is advice, about a Demon move
      const advice = /** @type {{ action?: import('./guide-model.js').DemonActionLike | null, why?: import('./guide-model.js').DemonWhy | null }} */ (g.advice);
      const marks = G.demonMarks(advice.action, me, advice.why);
      bubble.show({ heading, words: `${lead}${G.demonWhy(advice.why, t, card)}`, stepText, marks,
        anchor: marks.src || '.mine' });
    } else {
      bubble.show({ heading, words: t('guide.demonDone'), go: t('guide.gotIt'), anchor: '.mine' });
    }
  }

  return {
    update,
    onCoach,
    onError,
    destroy() {
      if (G.isOn(g) && playing()) keptCoach.set(model.code, g);
      if (reopener && reopener.run === restart) reopener = null;
      bubble.destroy();
    },
  };
}

// The rules dialog's "Show me again" button, when the page on show has a guide.
/**
 * @param {() => void} close closes the rules dialog
 * @returns {HTMLParagraphElement | null}
 */
export function showAgainButton(close) {
  const again = guideReopener();
  if (!again) return null;
  return h('p', { class: 'guide-again' }, h('button', { type: 'button', class: 'secondary', id: 'guide-again',
    text: t('guide.showAgain'), onclick: () => { close(); again.run(); } }));
}
