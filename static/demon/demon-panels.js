// The Demon table's panels, each drawn from a `view` of the model:
//   {state, round, seat (null: spectating), legal (this seat's, [] when it cannot act),
//    canAct, timeEnd, isHost}
// The status bar and the own layout keep a little memory (they are updated in place, or
// redrawn only when what they show changed); the others are redrawn each time. No panel
// sends anything: the buttons call the handlers the table gives them.

import { h, replaceChildren, icon, formatClock } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { cardEl, backEl, slotEl, seatColour, cardText } from '../cards/cards.js';
import { playerName, seatedPlayers, playerAtSeat, playerById, colourOfSeat } from './demon-model.js';
import { botBadge, botLevel } from './bot-badge.js';
import { foundationsWords, layoutWords } from './announce.js';
import { voteMatters, watchersOf, spectatorFate, matchOutcome } from './round-status.js';

// The letter on a foundation card saying whose it is.
function ownerTag(state, seat) {
  const name = playerName(state, seat);
  const number = botLevel(playerAtSeat(state, seat)) ? /\d+$/.exec(name) : null;
  if (number) return number[0]; // "Bot 2" -> "2": every bot's initial would be "B"
  return [...name][0] ? [...name][0].toUpperCase() : String(seat + 1);
}

function connText(p) {
  if (!p) return '';
  if (p.absent) return t('lobby.absent');
  return p.connected ? t('lobby.online') : t('lobby.offline');
}

// The status bar: round, time left, phase, the vote button. Built once and updated in
// place: in a busy room (bots move many times a second) a bar rebuilt on every event
// replaced the vote button between the press and the release of a click, and the click
// was lost.
export function createStatusBar(el, { onVote }) {
  const parts = {
    roundNo: h('span', { class: 'round-no' }),
    timeLeft: h('span', { class: 'time-left', hidden: true }, icon('clock'), h('span', { id: 'time-left' })),
    phase: h('span', { class: 'phase' }),
    spectator: h('span', { class: 'tag spectator' }),
    watching: h('span', { class: 'watching' }),
    count: h('span', { class: 'count' }),
    label: h('span', { class: 'vote-label' }),
  };
  parts.vote = h('button', { type: 'button', class: 'vote', id: 'vote-end', 'aria-keyshortcuts': 'V',
    onclick: onVote }, parts.label, parts.count);

  function update({ state: st, round: r, seat, timeEnd, you }) {
    const opts = st.options || {};
    const voters = seatedPlayers(st).filter((p) => p.connected && !p.absent).length;
    const votes = r && r.votes ? r.votes.length : 0;
    const voted = Boolean(r && r.votes && r.votes.includes(seat));
    const phaseText = st.phase === 'playing' ? null : t(`phase.${st.phase}`);
    parts.roundNo.textContent = t('table.round', { n: st.round_no ?? 1, of: opts.rounds ?? '?' });
    parts.timeLeft.hidden = timeEnd === null;
    parts.phase.textContent = phaseText || '';
    // a spectator is told the truth: dealt in at the next round, or watching a full table
    const fate = seat === null ? spectatorFate(st, you) : null;
    parts.spectator.textContent = fate ? t(fate === 'next' ? 'table.spectatingNext' : 'table.spectatingFull')
      : t('table.spectating');
    const watchers = watchersOf(st);
    parts.watching.textContent = t('table.watchers', { n: watchers.length });
    parts.watching.title = watchers.map((p) => p.name).join(', ');
    const canVote = seat !== null && st.phase === 'playing';
    const shown = [parts.roundNo, parts.timeLeft, phaseText ? parts.phase : null,
      seat === null ? parts.spectator : null, watchers.length ? parts.watching : null,
      canVote ? parts.vote : null].filter(Boolean);
    const current = [...el.children];
    if (shown.length !== current.length || shown.some((node, i) => node !== current[i])) {
      replaceChildren(el, ...shown);
    }
    // Quiet until it matters (this seat stuck, or a vote under way): then it says
    // "Stuck — end round" with the count; before, a small "End round" (V works always).
    const loud = voted || voteMatters(st, seat);
    parts.vote.className = `vote${voted ? ' voted' : ''}${loud ? '' : ' quiet'}`;
    parts.vote.setAttribute('aria-pressed', String(voted));
    parts.label.textContent = voted ? t('table.unvote') : loud ? t('table.vote') : t('table.voteQuiet');
    parts.count.textContent = loud ? ` ${votes}/${voters}` : '';
  }

  // The round's clock, every 200 ms.
  function tick(msLeft) {
    const node = el.querySelector('#time-left');
    if (!node) return;
    node.parentElement.hidden = msLeft === null;
    if (msLeft !== null) {
      const text = t('table.timeLeft', { time: formatClock(msLeft) });
      if (node.textContent !== text) node.textContent = text;
      node.parentElement.classList.toggle('low', msLeft < 30000);
    }
  }

  return { update, tick };
}

// Every other seat, small: its top cards, stock, waste and tags.
export function drawOpponents(el, { state: st, round: r, seat: me, muteButton = null }) {
  const seats = r.seats.map((view, seat) => ({ seat, view })).filter((s) => s.seat !== me);
  el.classList.toggle('many', seats.length > 3);
  el.classList.toggle('few', seats.length <= 2);
  el.classList.toggle('spectating', me === null);
  replaceChildren(el, seats.map(({ seat, view }) => {
    const p = playerAtSeat(st, seat);
    const name = playerName(st, seat);
    const live = st.phase === 'playing'; // the round's own tags go with the round
    const stuck = live && r.stuck && r.stuck.includes(seat);
    const voted = live && r.votes && r.votes.includes(seat);
    const home = r.cards_home ? r.cards_home[seat] ?? 0 : 0;
    const total = p ? p.total : null;
    const panel = h('section', { class: `opp${p && !p.connected ? ' away' : ''}`, dataset: { seat: String(seat), focus: `opp-${seat}` },
      'aria-label': t('table.layoutOf', { name }), tabindex: '0', 'aria-describedby': `opp-words-${seat}` });
    const colour = colourOfSeat(st, seat);
    panel.style.setProperty('--seat', seatColour(colour));
    const piles = view.tableau.map((pile, i) => {
      const top = pile.up.length ? pile.up[pile.up.length - 1] : null;
      // a spectator has the room to see each pile's whole face-up run, fanned
      const shown = me === null && pile.up.length > 1
        ? pile.up.map((c, j) => { const n = cardEl(c, { mini: true }); n.style.setProperty('--j', j); return n; })
        : top ? cardEl(top, { mini: true }) : null;
      return h('div', { class: `opp-pile${Array.isArray(shown) ? ' fanned' : ''}`, dataset: { src: String(i) } },
        shown || (pile.down ? backEl(colour, { mini: true }) : slotEl()),
        pile.down ? h('span', { class: 'down-count', 'aria-label': t('table.faceDown', { n: pile.down }), text: `+${pile.down}` }) : null);
    });
    const wasteTop = view.waste.length ? view.waste[view.waste.length - 1] : null;
    panel.append(
      h('header', { class: 'opp-head' },
        backEl(colour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name }) }),
        h('span', { class: 'opp-name', text: name }),
        botBadge(p) || h('span', { class: `conn conn-${p && p.absent ? 'absent' : p && p.connected ? 'online' : 'offline'}`,
          title: connText(p) }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'conn-text', text: connText(p) })),
        stuck ? h('span', { class: 'tag stuck', text: t('table.stuck') }) : null,
        voted ? h('span', { class: 'tag voted', text: t('table.voted') }) : null,
        h('span', { class: 'home-count', title: t('table.cardsHome'), text: `${home}/52` }),
        total !== null && total !== undefined ? h('span', { class: 'total', title: t('table.total'), text: `Σ${total}` }) : null,
        muteButton ? muteButton(p) : null), // emotes.js: hide this player's emotes
      h('div', { class: 'opp-cards' },
        h('div', { class: 'opp-stock', dataset: { src: 'stock' } },
          view.stock ? backEl(colour, { mini: true }) : slotEl(),
          h('span', { class: 'stock-count', text: String(view.stock ?? 0) })),
        h('div', { class: 'opp-waste', dataset: { src: 'waste' } }, wasteTop ? cardEl(wasteTop, { mini: true }) : slotEl()),
        h('div', { class: 'opp-piles' }, piles)),
      h('p', { class: 'sr-only', id: `opp-words-${seat}`, text: layoutWords(view, home, { t, cardText }) }));
    return panel;
  }));
}

// The shared foundations, and the place for a new one.
export function drawFoundations(el, { state: st, round: r }) {
  const piles = r.foundations.map((f, i) => {
    if (!f) return h('div', { class: 'fnd', dataset: { fpile: String(i), target: `f:${i}` } }, slotEl());
    const owner = playerName(st, f.seat);
    return h('div', { class: 'fnd', role: 'button', dataset: { fpile: String(i), target: `f:${i}` },
      'aria-label': t('table.foundationPile', { n: i + 1, card: cardText(f.top), name: owner }) },
    cardEl(f.top, { owner: colourOfSeat(st, f.seat), ownerLabel: ownerTag(st, f.seat) }));
  });
  const next = r.foundations.length;
  el.classList.toggle('many', next >= 12); // smaller cards: the row stays short (style.css)
  piles.push(h('div', { class: 'fnd fnd-new', role: 'button', dataset: { target: `f:${next}` },
    'aria-label': t('table.newPile') }, slotEl(t('table.newPileShort'))));
  el.tabIndex = 0;
  el.setAttribute('aria-describedby', 'fnd-words');
  replaceChildren(el, h('h2', { class: 'sr-only', text: t('table.foundations') }), piles,
    h('p', { class: 'sr-only', id: 'fnd-words', text: foundationsWords(r.foundations, { t, cardText, nameOf: (seat) => playerName(st, seat) }) }));
}

// Your own layout, large. Redrawn only when something it shows changed (so a card being
// dragged is not replaced under the pointer by every other seat's move); `draw()` answers
// whether it redrew. A drawn card fans in when the waste grew.
export function createMinePanel(el, { onDraw, extra = null }) {
  let drawnFrom = null;
  let lastWaste = null;
  let lastWasteCount = null;

  function draw({ state: st, round: r, seat, legal, canAct }) {
    if (seat === null) {
      el.hidden = true;
      replaceChildren(el);
      return true;
    }
    el.hidden = false;
    const me = r.seats[seat] || null;
    const myColour = colourOfSeat(st, seat);
    const mePlayer = playerAtSeat(st, seat);
    el.style.setProperty('--seat', seatColour(myColour));
    if (!me) {
      replaceChildren(el, h('p', { class: 'note', text: t('table.waitingSeat') }));
      return true;
    }
    const key = JSON.stringify([me, canAct, legal, r.stuck, r.cards_home, mePlayer && mePlayer.total,
      mePlayer && mePlayer.name, myColour, st.phase, t('lang.code')]);
    if (key === drawnFrom && el.firstChild) return false;
    drawnFrom = key;
    const hasDraw = legal.some((a) => a.type === 'draw');
    const hasRecycle = legal.some((a) => a.type === 'recycle');
    const stuck = st.phase === 'playing' && r.stuck && r.stuck.includes(seat); // not on the results
    const home = r.cards_home ? r.cards_home[seat] ?? 0 : 0;
    const total = mePlayer ? mePlayer.total : null;

    const stockBtn = h('button', { type: 'button', class: 'stock', id: 'stock', dataset: { focus: 'stock', src: 'stock' },
      disabled: !canAct || (!hasDraw && !hasRecycle), 'aria-keyshortcuts': 'D Space',
      'aria-label': hasRecycle ? t('table.recycle', { n: me.stock }) : t('table.drawLabel', { n: me.stock }),
      onclick: onDraw },
    me.stock ? backEl(myColour, { label: t('table.stockCount', { n: me.stock }) }) : slotEl('↺', 'recycle'),
    h('span', { class: 'stock-count', text: String(me.stock) }));

    const waste = me.waste;
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
      if (!pile.down && !pile.up.length) node.append(slotEl('', 'empty-pile')); // K: a11y.css
      node.append(h('span', { class: 'pile-key', 'aria-hidden': 'true', text: String(i + 1) }));
      return node;
    });

    replaceChildren(el,
      h('header', { class: 'mine-head' },
        backEl(myColour, { mini: true, extraClass: 'swatch', label: t('lobby.backOf', { name: playerName(st, seat) }) }),
        h('span', { class: 'opp-name', text: playerName(st, seat) }),
        h('span', { class: 'tag you', text: t('lobby.you') }),
        stuck ? h('span', { class: 'tag stuck', text: t('table.youStuck') }) : null,
        h('span', { class: 'home-count', title: t('table.cardsHome'), text: t('table.home', { n: home }) }),
        total !== null && total !== undefined ? h('span', { class: 'total', text: t('table.totalIs', { n: total }) }) : null,
        extra), // emotes.js: say hello
      h('div', { class: 'mine-top' }, stockBtn, wasteBox),
      h('div', { class: 'tableau' }, piles));
    return true;
  }

  return { draw };
}

// The round's (or the match's) result: the scores, and what comes next.
export function drawResults(el, { state: st, isHost: host }, { onNext, onRematch, onLeave }) {
  const res = st.result;
  if (!res || (st.phase !== 'round_over' && st.phase !== 'match_over')) {
    replaceChildren(el);
    return;
  }
  const matchOver = st.phase === 'match_over' || res.match_over;
  const players = seatedPlayers(st);
  const totalOf = (p) => res.totals[p.id] ?? p.total ?? 0;
  const order = [...players].sort((a, b) => totalOf(b) - totalOf(a));
  const { winners, tie } = matchOutcome(res);
  const winnerIds = new Set(winners);
  const isWinner = (p) => winnerIds.has(p.id);
  const winner = playerById(st, res.winner);
  const demon = res.reason === 'demon';
  const reason = demon
    ? t('result.demon', { name: winner ? winner.name : '?' })
    : t(`result.${res.reason}`);
  const table = h('table', { class: 'score-table' },
    h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('result.player') }),
      h('th', { scope: 'col', text: t('result.thisRound') }), h('th', { scope: 'col', text: t('result.total') }))),
    h('tbody', null, order.map((p) => {
      const won = matchOver && isWinner(p);
      const out = demon && res.winner === p.id; // went out this round
      return h('tr', { class: [won ? 'winner' : '', out ? 'demon' : ''].join(' ').trim() },
        h('th', { scope: 'row' }, backEl(colourOfSeat(st, p.seat), { mini: true, extraClass: 'swatch' }), ' ',
          h('span', { text: p.name }), botBadge(p) ? ' ' : null, botBadge(p),
          out ? h('span', { class: 'tag demon-tag', text: t('table.demonCall') }) : null,
          won ? h('span', { class: tie ? 'tag win tie' : 'tag win', text: tie ? t('result.tied') : t('result.winner') }) : null),
        h('td', { text: String(res.scores[p.id] ?? 0) }),
        h('td', { text: String(totalOf(p)) }));
    })));
  const winnerNames = players.filter(isWinner).map((p) => p.name);
  const winnerText = tie ? t('result.matchTie', { names: winnerNames.join(', ') })
    : t('result.matchWinner', { names: winnerNames.join(', ') });
  replaceChildren(el, h('section', { class: `panel results${demon ? ' demon' : ''}`, id: 'results', 'aria-labelledby': 'results-title' },
    h('h2', { id: 'results-title', text: matchOver ? t('result.matchOver') : t('result.roundOver', { n: st.round_no ?? 1 }) }),
    h('p', { class: 'reason', text: reason }),
    matchOver && winnerNames.length ? h('p', { class: `match-winner${tie ? ' tie' : ''}`, text: winnerText }) : null,
    table,
    host && !matchOver ? h('button', { type: 'button', class: 'primary big', id: 'next-round',
      onclick: onNext }, t('result.nextRound')) : null,
    host && matchOver ? h('button', { type: 'button', class: 'primary big', id: 'rematch',
      onclick: onRematch }, t('result.rematch')) : null,
    !host ? h('p', { class: 'note', text: matchOver ? t('result.waitRematch') : t('result.waitNext') }) : null,
    h('button', { type: 'button', class: 'secondary', onclick: () => {
      if (window.confirm(t('lobby.leaveConfirm'))) onLeave();
    } }, t('lobby.leave'))));
}
