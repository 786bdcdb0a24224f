// The Demon table: your layout large at the bottom, every other seat compact above,
// the shared foundations in the middle. Everything drawn comes from the server's
// state; the moves offered come from the server's legal list.

import { h, replaceChildren, toast, formatClock, cssEscape, icon } from './dom.js';
import { t } from './i18n.js';
import { cardEl, backEl, slotEl, seatColour, cardText } from './cards.js';
import { playerName, playsOf, seatedPlayers, playerAtSeat, playerById, colourOfSeat } from './demon-model.js';
import { attachCardInput, makeGhost, flyFrom, bindKeys } from './input.js';
import { play } from './sound.js';
import { botBadge, botLevel } from './bot-badge.js';

const sameSrc = (a, b) => a === b || (a !== 'waste' && b !== 'waste' && Number(a) === Number(b));

export function mount(container, ctx) {
  const model = ctx.model;
  let sel = null; // {src: 'waste' | 0..6, count}
  const pending = new Map(); // action id -> {ghost, sel, action, landed}

  const status = h('div', { class: 'table-status' });
  const opponents = h('section', { class: 'opponents', 'aria-label': t('table.opponents') });
  const foundations = h('section', { class: 'foundations', 'aria-label': t('table.foundations') });
  const mine = h('section', { class: 'mine' });
  const results = h('div', { class: 'results-slot' });
  const live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const el = h('div', { class: 'table' }, status, results, opponents, foundations, mine, live);
  let mineKey = null; // what the own layout was last drawn from
  let lastWaste = null;
  let lastWasteCount = null;
  container.append(el);

  const input = attachCardInput(el, {
    pickOf,
    same: (a, b) => a && b && sameSrc(a.src, b.src) && a.count === b.count,
    liftOf,
    targets: targetsFor,
    commit,
    quick,
    selected: () => sel,
    select,
  });
  const unbindKeys = bindKeys({
    d: draw, space: draw,
    w: () => pickKey('waste'),
    f: () => { if (sel) { const s = sel; select(null); quick(s, {}); } },
    v: () => vote(),
    Escape: () => select(null),
    Enter: () => { const a = document.activeElement; if (a && el.contains(a)) input.activate(a); else return false; return true; },
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => growSelection(1),
    ArrowDown: () => growSelection(-1),
    ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [String(n), () => pickKey(n - 1)])),
  });

  // ---- what the state says ---------------------------------------------------------
  const state = () => model.state;
  const round = () => (model.state ? model.state.round : null);
  const playing = () => model.state && model.state.phase === 'playing' && model.seat !== null;

  function seatView(seat) {
    const r = round();
    if (!r || !r.seats) return null;
    return r.seats[seat] || null;
  }

  function roundSeats() {
    const r = round();
    if (!r || !r.seats) return [];
    return r.seats.map((view, i) => ({ seat: i, view }))
      .filter((s) => s.view);
  }

  function legal() { return playing() ? model.legal || [] : []; }

  // ---- selection and targets (from the legal list only) ----------------------------
  function pickOf(node) {
    if (!playing()) return null;
    const pick = node.dataset.pick;
    const me = seatView(model.seat);
    if (!me) return null;
    if (pick === 'w') return me.waste && me.waste.length ? { src: 'waste', count: 1 } : null;
    const m = /^t:(\d):(\d+)$/.exec(pick || '');
    if (!m) return null;
    const pile = me.tableau[Number(m[1])];
    const j = Number(m[2]);
    if (!pile || j >= pile.up.length) return null;
    return { src: Number(m[1]), count: pile.up.length - j };
  }

  function pickSelector(s) {
    if (s.src === 'waste') return '[data-pick="w"]';
    const me = seatView(model.seat);
    const pile = me && me.tableau[s.src];
    if (!pile) return null;
    return `[data-pick="t:${s.src}:${pile.up.length - s.count}"]`;
  }

  function liftOf(s) {
    if (!s) return [];
    if (s.src === 'waste') return [...mine.querySelectorAll('[data-pick="w"]')];
    const me = seatView(model.seat);
    const pile = me && me.tableau[s.src];
    if (!pile) return [];
    const out = [];
    for (let j = pile.up.length - s.count; j < pile.up.length; j++) {
      const node = mine.querySelector(`[data-pick="t:${s.src}:${j}"]`);
      if (node) out.push(node);
    }
    return out;
  }

  function targetsFor(s) {
    const keys = new Set();
    if (!s) return keys;
    for (const a of legal()) {
      if (a.type === 'tableau' && sameSrc(a.src, s.src) && a.count === s.count) keys.add(`t:${a.dst}`);
      if (a.type === 'foundation' && sameSrc(a.src, s.src) && s.count === 1) {
        keys.add(a.pile === null || a.pile === undefined ? 'f:any' : `f:${a.pile}`);
      }
    }
    if (keys.has('f:any')) {
      foundations.querySelectorAll('[data-target^="f:"]').forEach((n) => keys.add(n.dataset.target));
    }
    return keys;
  }

  function canQuick(s) {
    return s && s.count === 1 && legal().some((a) => a.type === 'foundation' && sameSrc(a.src, s.src));
  }

  function select(s) {
    sel = s;
    if (s) play('select');
    paintSelection();
  }

  function paintSelection() {
    el.querySelectorAll('.selected').forEach((n) => n.classList.remove('selected'));
    el.querySelectorAll('.legal-target').forEach((n) => {
      n.classList.remove('legal-target');
      if (n.dataset.target && n.dataset.target.startsWith('f:')) n.removeAttribute('tabindex');
    });
    if (!sel) { el.classList.remove('holding'); return; }
    el.classList.add('holding');
    liftOf(sel).forEach((n) => n.classList.add('selected'));
    for (const key of targetsFor(sel)) {
      const node = el.querySelector(`[data-target="${cssEscape(key)}"]`);
      if (node) {
        node.classList.add('legal-target');
        if (key.startsWith('f:')) node.setAttribute('tabindex', '0');
      }
    }
  }

  // ---- sending ---------------------------------------------------------------------
  function send(action, s, ghost, targetNode) {
    const id = ctx.action(action);
    if (!id) {
      toast(t('table.offline'), 'warn');
      if (ghost) ghost.flyBack();
      return false;
    }
    let g = ghost;
    if (!g && s) {
      const lift = liftOf(s);
      if (lift.length) g = makeGhost(lift);
    }
    if (g && targetNode) g.flyTo(targetNode.getBoundingClientRect());
    pending.set(id, { ghost: g, sel: s, action, at: Date.now() });
    setTimeout(() => expire(id), 6000);
    return true;
  }

  function expire(id) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (p.ghost && !p.ghost.removed) p.ghost.flyBack(p.sel ? liftOf(p.sel) : undefined);
  }

  function targetNodeFor(key) {
    if (key === 'f:any') return foundations.querySelector('.fnd-new') || foundations;
    return el.querySelector(`[data-target="${cssEscape(key)}"]`);
  }

  function commit(s, key, how = {}) {
    if (!targetsFor(s).has(key)) return false;
    const [kind, rest] = key.split(':');
    let action;
    if (kind === 't') action = { type: 'tableau', src: s.src, dst: Number(rest), count: s.count };
    else action = { type: 'foundation', src: s.src, pile: rest === 'any' ? null : Number(rest) };
    return send(action, s, how.ghost, targetNodeFor(key));
  }

  function quick(s, how = {}) {
    if (!canQuick(s)) {
      if (how.ghost) how.ghost.flyBack();
      return false;
    }
    // fly towards the first pile the server listed for this card (only a guess for
    // the animation; the server picks the pile)
    const first = legal().find((a) => a.type === 'foundation' && sameSrc(a.src, s.src));
    const node = first && first.pile !== null && first.pile !== undefined
      ? targetNodeFor(`f:${first.pile}`) : foundations;
    return send({ type: 'foundation', src: s.src, pile: null }, s, how.ghost, node);
  }

  function draw() {
    if (!playing()) return false;
    const a = legal().find((x) => x.type === 'draw') || legal().find((x) => x.type === 'recycle');
    if (!a) return true;
    select(null);
    if (send({ type: a.type }, null, null, null)) play('draw');
    return true;
  }

  function vote() {
    const r = round();
    if (!r || model.seat === null || state().phase !== 'playing') return false;
    const voted = (r.votes || []).includes(model.seat);
    ctx.send({ type: 'vote', end: !voted });
    return true;
  }

  // keyboard: a number picks that pile (again: a longer run) or drops the held cards
  // there; W picks the waste.
  function pickKey(src) {
    if (!playing()) return false;
    if (sel && targetsFor(sel).has(src === 'waste' ? '' : `t:${src}`)) {
      const s = sel;
      select(null);
      commit(s, `t:${src}`);
      return true;
    }
    const me = seatView(model.seat);
    if (!me) return true;
    if (src === 'waste') {
      select(sel && sel.src === 'waste' ? null : (me.waste && me.waste.length ? { src: 'waste', count: 1 } : null));
      return true;
    }
    const pile = me.tableau[src];
    if (!pile || !pile.up.length) { select(null); return true; }
    if (sel && sel.src === src) {
      const count = sel.count >= pile.up.length ? 1 : sel.count + 1;
      select({ src, count });
    } else {
      select({ src, count: 1 });
    }
    const node = mine.querySelector(`[data-focus="pile-${src}"]`);
    if (node) node.focus({ preventScroll: true });
    return true;
  }

  function growSelection(delta) {
    if (!sel || sel.src === 'waste') return false;
    const me = seatView(model.seat);
    const pile = me && me.tableau[sel.src];
    if (!pile) return false;
    const count = Math.min(pile.up.length, Math.max(1, sel.count + delta));
    select({ src: sel.src, count });
    return true;
  }

  function moveFocus(delta) {
    const items = [...mine.querySelectorAll('[data-focus]')];
    if (!items.length) return false;
    const i = items.indexOf(document.activeElement);
    const next = items[(i + delta + items.length) % items.length];
    next.focus();
    return true;
  }

  // ---- server answers --------------------------------------------------------------
  function onAck(msg) {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (p.ghost) p.ghost.remove();
    if (p.action.type !== 'draw' && p.action.type !== 'recycle') play('place');
  }

  function onRejected(msg) {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    play('bad');
    if (p && p.ghost) p.ghost.flyBack(p.sel ? liftOf(p.sel) : undefined);
    let note;
    if (msg.by_name !== undefined && msg.by_name !== null) {
      note = t('table.beatenBy', { name: msg.by_name });
    } else if (msg.by_seat !== undefined && msg.by_seat !== null) {
      note = t('table.beatenBy', { name: playerName(state(), msg.by_seat) });
    } else {
      note = t('table.rejectedWhy', { reason: msg.reason || msg.code || '?' });
    }
    toast(note, 'warn');
    live.textContent = note;
    const mark = h('p', { class: 'race-note', role: 'status', text: note });
    mine.prepend(mark);
    setTimeout(() => mark.remove(), 3500);
  }

  function onError() {
    for (const [id, p] of pending) {
      pending.delete(id);
      if (p.ghost) p.ghost.flyBack(p.sel ? liftOf(p.sel) : undefined);
    }
  }

  function onSnapshot() {
    for (const [, p] of pending) if (p.ghost) p.ghost.remove();
    pending.clear();
    sel = null;
  }

  // Before a move is applied, remember where the played card was, so it can fly from
  // there to its foundation once drawn.
  function beforeEvent(event) {
    if (event.kind !== 'move') return null;
    const plays = playsOf(event);
    const src = event.action ? event.action.src : undefined;
    if (event.seat === model.seat) {
      // my own move: the ghost (if any) already shows it; let it go
      for (const [id, p] of pending) {
        if (p.action.type === (event.action && event.action.type) && sameSrc(p.action.src, src)) {
          if (p.ghost) p.ghost.remove();
          p.ghost = null;
          pending.set(id, p);
          return { plays: [], mine: true, hadGhost: true };
        }
      }
      const node = src === undefined ? null
        : mine.querySelector(src === 'waste' ? '[data-pick="w"]' : `[data-src="${src}"] .card:last-child`);
      return { plays, from: node ? node.getBoundingClientRect() : null, mine: true };
    }
    const panel = opponents.querySelector(`[data-seat="${event.seat}"]`);
    const node = panel && src !== undefined ? panel.querySelector(`[data-src="${src}"]`) : null;
    return { plays, from: node ? node.getBoundingClientRect() : null, mine: false };
  }

  function afterEvent(event, before) {
    if (event.kind !== 'move' || !before) return;
    if (!before.mine) play('other');
    if (!before.from) return;
    for (const p of before.plays) {
      const node = foundations.querySelector(`[data-fpile="${p.pile}"] .card`);
      if (node) flyFrom(node, before.from, before.mine ? 220 : 420);
    }
  }

  // ---- drawing ---------------------------------------------------------------------
  function ownerTag(seat) {
    const name = playerName(state(), seat);
    const owner = playerAtSeat(state(), seat);
    const number = botLevel(owner) ? /\d+$/.exec(name) : null;
    if (number) return number[0]; // "Bot 2" -> "2": every bot's initial would be "B"
    return [...name][0] ? [...name][0].toUpperCase() : String(seat + 1);
  }

  function connText(p) {
    if (!p) return '';
    if (p.absent) return t('lobby.absent');
    return p.connected ? t('lobby.online') : t('lobby.offline');
  }

  // The status bar is built once and updated in place: in a busy room (bots move many
  // times a second) a bar rebuilt on every event replaced the vote button between the
  // press and the release of a click, and the click was lost.
  const statusParts = {
    roundNo: h('span', { class: 'round-no' }),
    timeLeft: h('span', { class: 'time-left', hidden: true }, icon('clock'), h('span', { id: 'time-left' })),
    phase: h('span', { class: 'phase' }),
    spectator: h('span', { class: 'tag spectator' }),
    count: h('span', { class: 'count' }),
    label: h('span', { class: 'vote-label' }),
  };
  statusParts.vote = h('button', { type: 'button', class: 'vote', id: 'vote-end', 'aria-keyshortcuts': 'V',
    onclick: vote }, statusParts.label, statusParts.count);

  function drawStatus() {
    const st = state();
    const r = round();
    const opts = st.options || {};
    const players = seatedPlayers(st);
    const voters = players.filter((p) => p.connected && !p.absent).length;
    const votes = r && r.votes ? r.votes.length : 0;
    const voted = Boolean(r && r.votes && r.votes.includes(model.seat));
    const phaseText = st.phase === 'playing' ? null : t(`phase.${st.phase}`);
    const parts = statusParts;
    parts.roundNo.textContent = t('table.round', { n: st.round_no ?? 1, of: opts.rounds ?? '?' });
    parts.timeLeft.hidden = model.timeEnd === null;
    parts.phase.textContent = phaseText || '';
    parts.spectator.textContent = t('table.spectating');
    const canVote = model.seat !== null && st.phase === 'playing';
    const shown = [parts.roundNo, parts.timeLeft, phaseText ? parts.phase : null,
      model.seat === null ? parts.spectator : null, canVote ? parts.vote : null].filter(Boolean);
    const current = [...status.children];
    if (shown.length !== current.length || shown.some((node, i) => node !== current[i])) {
      replaceChildren(status, ...shown);
    }
    parts.vote.className = voted ? 'vote voted' : 'vote';
    parts.vote.setAttribute('aria-pressed', String(voted));
    parts.label.textContent = voted ? t('table.unvote') : t('table.vote');
    parts.count.textContent = ` ${votes}/${voters}`;
  }

  function drawOpponents() {
    const st = state();
    const seats = roundSeats().filter((s) => s.seat !== model.seat);
    const r = round();
    opponents.classList.toggle('many', seats.length > 3);
    opponents.classList.toggle('few', seats.length <= 2);
    opponents.classList.toggle('spectating', model.seat === null);
    replaceChildren(opponents, seats.map(({ seat, view }) => {
      const p = (st.players || []).find((x) => x.seat === seat);
      const name = playerName(st, seat);
      const stuck = r.stuck && r.stuck.includes(seat);
      const voted = r.votes && r.votes.includes(seat);
      const home = r.cards_home ? r.cards_home[seat] ?? 0 : 0;
      const total = p ? p.total : null;
      const panel = h('section', { class: `opp${p && !p.connected ? ' away' : ''}`, dataset: { seat: String(seat) },
        'aria-label': t('table.layoutOf', { name }) });
      const colour = colourOfSeat(st, seat);
      panel.style.setProperty('--seat', seatColour(colour));
      const piles = view.tableau.map((pile, i) => {
        const top = pile.up.length ? pile.up[pile.up.length - 1] : null;
        return h('div', { class: 'opp-pile', dataset: { src: String(i) } },
          top ? cardEl(top, { mini: true }) : pile.down ? backEl(colour, { mini: true }) : slotEl(),
          pile.down ? h('span', { class: 'down-count', 'aria-label': t('table.faceDown', { n: pile.down }), text: `+${pile.down}` }) : null);
      });
      const wasteTop = view.waste && view.waste.length ? view.waste[view.waste.length - 1] : null;
      panel.append(
        h('header', { class: 'opp-head' },
          backEl(colour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name }) }),
          h('span', { class: 'opp-name', text: name }),
          botBadge(p) || h('span', { class: `conn conn-${p && p.absent ? 'absent' : p && p.connected ? 'online' : 'offline'}`,
            title: connText(p) }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'conn-text', text: connText(p) })),
          stuck ? h('span', { class: 'tag stuck', text: t('table.stuck') }) : null,
          voted ? h('span', { class: 'tag voted', text: t('table.voted') }) : null,
          h('span', { class: 'home-count', title: t('table.cardsHome'), text: `${home}/52` }),
          total !== null && total !== undefined ? h('span', { class: 'total', title: t('table.total'), text: `Σ${total}` }) : null),
        h('div', { class: 'opp-cards' },
          h('div', { class: 'opp-stock', dataset: { src: 'stock' } },
            view.stock ? backEl(colour, { mini: true }) : slotEl(),
            h('span', { class: 'stock-count', text: String(view.stock ?? 0) })),
          h('div', { class: 'opp-waste', dataset: { src: 'waste' } }, wasteTop ? cardEl(wasteTop, { mini: true }) : slotEl()),
          h('div', { class: 'opp-piles' }, piles)));
      return panel;
    }));
  }

  function drawFoundations() {
    const r = round();
    const piles = (r.foundations || []).map((f, i) => {
      if (!f) return h('div', { class: 'fnd', dataset: { fpile: String(i), target: `f:${i}` } }, slotEl());
      const owner = playerName(state(), f.seat);
      const node = h('div', { class: 'fnd', role: 'button', dataset: { fpile: String(i), target: `f:${i}` },
        'aria-label': t('table.foundationPile', { n: i + 1, card: cardText(f.top), name: owner }) },
      cardEl(f.top, { owner: colourOfSeat(state(), f.seat), ownerLabel: ownerTag(f.seat) }));
      return node;
    });
    const next = (r.foundations || []).length;
    piles.push(h('div', { class: 'fnd fnd-new', role: 'button', dataset: { target: `f:${next}` },
      'aria-label': t('table.newPile') }, slotEl(t('table.newPileShort'))));
    replaceChildren(foundations, h('h2', { class: 'sr-only', text: t('table.foundations') }), piles);
  }

  function drawMine() {
    const st = state();
    if (model.seat === null) {
      mine.hidden = true;
      replaceChildren(mine);
      return;
    }
    mine.hidden = false;
    const me = seatView(model.seat);
    const r = round();
    const myColour = colourOfSeat(st, model.seat);
    const mePlayer = playerAtSeat(st, model.seat);
    mine.style.setProperty('--seat', seatColour(myColour));
    if (!me) {
      replaceChildren(mine, h('p', { class: 'note', text: t('table.waitingSeat') }));
      return;
    }
    const canAct = playing();
    const key = JSON.stringify([me, canAct, legal(), r.stuck, r.cards_home, mePlayer && mePlayer.total,
      mePlayer && mePlayer.name, myColour, t('lang.code')]);
    if (key === mineKey && mine.firstChild) {
      hideMoving();
      return;
    }
    mineKey = key;
    const hasDraw = legal().some((a) => a.type === 'draw');
    const hasRecycle = legal().some((a) => a.type === 'recycle');
    const stuck = r.stuck && r.stuck.includes(model.seat);
    const home = r.cards_home ? r.cards_home[model.seat] ?? 0 : 0;
    const total = mePlayer ? mePlayer.total : null;

    const stockBtn = h('button', { type: 'button', class: 'stock', id: 'stock', dataset: { focus: 'stock', src: 'stock' },
      disabled: !canAct || (!hasDraw && !hasRecycle), 'aria-keyshortcuts': 'D Space',
      'aria-label': hasRecycle ? t('table.recycle') : t('table.drawLabel', { n: me.stock }),
      onclick: draw },
    me.stock ? backEl(myColour, { label: t('table.stockCount', { n: me.stock }) }) : slotEl('↺', 'recycle'),
    h('span', { class: 'stock-count', text: String(me.stock) }));

    const waste = me.waste || [];
    const wasteKey = `${waste.join(' ')}|${me.waste_count}|${me.stock}`;
    const drawn = lastWaste !== null && wasteKey !== lastWaste && me.waste_count > 0
      && (lastWasteCount === null || me.waste_count > lastWasteCount);
    lastWaste = wasteKey;
    lastWasteCount = me.waste_count;
    const wasteBox = h('div', { class: `waste fan-${waste.length}`, dataset: { focus: 'waste', src: 'waste' }, tabindex: '0',
      role: 'button', 'aria-keyshortcuts': 'W',
      'aria-label': waste.length ? t('table.wasteTop', { card: cardText(waste[waste.length - 1]), n: me.waste_count ?? waste.length }) : t('table.wasteEmpty') },
    waste.length ? waste.map((c, i) => {
      const node = cardEl(c, { extraClass: drawn ? 'dealt' : '' });
      node.style.setProperty('--i', i);
      if (i === waste.length - 1) node.dataset.pick = 'w';
      return node;
    }) : slotEl());

    const piles = me.tableau.map((pile, i) => {
      const node = h('div', { class: 'pile', role: 'button', tabindex: '0',
        dataset: { target: `t:${i}`, focus: `pile-${i}`, src: String(i) },
        'aria-keyshortcuts': String(i + 1),
        'aria-label': t('table.pileLabel', { n: i + 1, down: pile.down,
          up: pile.up.map(cardText).join(' ') || t('table.none') }) });
      node.style.setProperty('--d', pile.down);
      node.style.setProperty('--u', Math.max(0, pile.up.length - 1));
      for (let k = 0; k < pile.down; k++) {
        const b = backEl(myColour, { extraClass: 'down' });
        b.style.setProperty('--k', k);
        node.append(b);
      }
      pile.up.forEach((c, j) => {
        const card = cardEl(c, { extraClass: 'up' });
        card.style.setProperty('--d', pile.down);
        card.style.setProperty('--j', j);
        if (canAct) card.dataset.pick = `t:${i}:${j}`;
        node.append(card);
      });
      if (!pile.down && !pile.up.length) node.append(slotEl('K', 'empty-pile'));
      node.append(h('span', { class: 'pile-key', 'aria-hidden': 'true', text: String(i + 1) }));
      return node;
    });

    replaceChildren(mine,
      h('header', { class: 'mine-head' },
        backEl(myColour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name: playerName(st, model.seat) }) }),
        h('span', { class: 'opp-name', text: playerName(st, model.seat) }),
        h('span', { class: 'tag you', text: t('lobby.you') }),
        stuck ? h('span', { class: 'tag stuck', text: t('table.youStuck') }) : null,
        h('span', { class: 'home-count', title: t('table.cardsHome'), text: t('table.home', { n: home }) }),
        total !== null && total !== undefined ? h('span', { class: 'total', text: t('table.totalIs', { n: total }) }) : null),
      h('div', { class: 'mine-top' }, stockBtn, wasteBox),
      h('div', { class: 'tableau' }, piles));
    hideMoving();
  }

  // Cards being dragged, or on their way to the server, stay hidden in the layout.
  function hideMoving() {
    for (const p of pending.values()) {
      if (p.ghost && !p.ghost.removed && p.sel) liftOf(p.sel).forEach((n) => n.classList.add('lifted'));
    }
    const held = input.dragging();
    if (held) liftOf(held).forEach((n) => n.classList.add('lifted'));
  }

  function drawResults() {
    const st = state();
    const res = st.result;
    if (!res || (st.phase !== 'round_over' && st.phase !== 'match_over')) {
      replaceChildren(results);
      return;
    }
    const host = ctx.isHost();
    const matchOver = st.phase === 'match_over' || res.match_over;
    const players = seatedPlayers(st);
    const totalOf = (p) => res.totals[p.id] ?? p.total ?? 0;
    const order = [...players].sort((a, b) => totalOf(b) - totalOf(a));
    const winnerIds = new Set(res.winners || []);
    const isWinner = (p) => winnerIds.has(p.id);
    const winner = playerById(st, res.winner);
    const reason = res.reason === 'demon'
      ? t('result.demon', { name: winner ? winner.name : '?' })
      : t(`result.${res.reason}`);
    const table = h('table', { class: 'score-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('result.player') }),
        h('th', { scope: 'col', text: t('result.thisRound') }), h('th', { scope: 'col', text: t('result.total') }))),
      h('tbody', null, order.map((p) => {
        const won = matchOver && isWinner(p);
        return h('tr', { class: won ? 'winner' : '' },
          h('th', { scope: 'row' }, backEl(colourOfSeat(st, p.seat), { mini: true, extraClass: 'swatch' }), ' ',
            h('span', { text: p.name }), botBadge(p) ? ' ' : null, botBadge(p),
            won ? h('span', { class: 'tag win', text: t('result.winner') }) : null),
          h('td', { text: String(res.scores[p.id] ?? 0) }),
          h('td', { text: String(totalOf(p)) }));
      })));
    const winners = players.filter(isWinner);
    const winnerNames = winners.map((p) => p.name);
    replaceChildren(results, h('section', { class: 'panel results', id: 'results', 'aria-labelledby': 'results-title' },
      h('h2', { id: 'results-title', text: matchOver ? t('result.matchOver') : t('result.roundOver', { n: st.round_no ?? 1 }) }),
      h('p', { class: 'reason', text: reason }),
      matchOver && winnerNames.length ? h('p', { class: 'match-winner', text: t('result.matchWinner', { names: winnerNames.join(', ') }) }) : null,
      table,
      host && !matchOver ? h('button', { type: 'button', class: 'primary big', id: 'next-round',
        onclick: () => ctx.send({ type: 'next_round' }) }, t('result.nextRound')) : null,
      host && matchOver ? h('button', { type: 'button', class: 'primary big', id: 'rematch',
        onclick: () => ctx.send({ type: 'rematch' }) }, t('result.rematch')) : null,
      !host ? h('p', { class: 'note', text: matchOver ? t('result.waitRematch') : t('result.waitNext') }) : null,
      h('button', { type: 'button', class: 'secondary', onclick: () => {
        if (window.confirm(t('lobby.leaveConfirm'))) ctx.leave();
      } }, t('lobby.leave'))));
  }

  function update() {
    if (!state() || !round()) return;
    el.classList.toggle('spectator', model.seat === null);
    el.dataset.players = String(roundSeats().length);
    drawStatus();
    drawOpponents();
    drawFoundations();
    drawMine();
    drawResults();
    if (sel && !liftOf(sel).length) sel = null;
    paintSelection();
    tick(model.timeEnd === null ? null : Math.max(0, model.timeEnd - performance.now()));
  }

  function tick(msLeft) {
    const node = status.querySelector('#time-left');
    if (!node) return;
    node.parentElement.hidden = msLeft === null;
    if (msLeft !== null) {
      const text = t('table.timeLeft', { time: formatClock(msLeft) });
      if (node.textContent !== text) node.textContent = text;
      node.parentElement.classList.toggle('low', msLeft < 30000);
    }
  }

  return {
    update,
    tick,
    onAck,
    onRejected,
    onError,
    onSnapshot,
    onLegal: () => { if (playing()) { drawMine(); drawStatus(); if (sel && !liftOf(sel).length) sel = null; paintSelection(); } },
    beforeEvent,
    afterEvent,
    keys: () => [[t('keys.demon'), [
      [`D / ${t('keys.space')}`, t('keys.draw')],
      ['1 – 7', t('keys.pickPile')],
      ['W', t('keys.pickWaste')],
      ['↑ / ↓', t('keys.runLength')],
      ['F', t('keys.toFoundation')],
      ['Enter', t('keys.enter')],
      ['← / →', t('keys.focusMove')],
      ['V', t('keys.vote')],
      ['Esc', t('keys.drop')],
    ]]],
    destroy() {
      input.destroy();
      unbindKeys();
      for (const p of pending.values()) if (p.ghost) p.ghost.remove();
      el.remove();
    },
  };
}
