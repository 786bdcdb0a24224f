// A racing table's notes over your layout (Demon's, Nerts'): a refused play, a race lost
// (who got there first, and by how much) or won. A refusal is said once: one note over
// your layout and the same words, once, in the table's polite live region, never a note
// and a toast. A play that arrived after the round ended says nothing of its own: the
// call ("Demon!", "Nerts!") and the results already tell who won.

import { h } from '../common/dom.js';
import { t, getLang } from '../common/i18n.js';
import { formatMargin } from '../common/margin.js';
import { play } from '../common/sound.js';

/** @typedef {import('../demon/protocol-types.js').RejectedMessage} RejectedMessage */
/** @typedef {import('../demon/protocol-types.js').RaceWonMessage} RaceWonMessage */

/**
 * @param {{mine: HTMLElement, live: HTMLElement, nameOf: (seat: number) => string}} parts where the
 *   note shows, the live region that says it, and a seat's name
 */
export function createRaceNotes({ mine, live, nameOf }) {
  /** @type {HTMLElement | null} */
  let note = null;

  /**
   * @param {string} text
   * @param {string} [kind] '' (refused, lost) or 'won'; the Nerts table adds 'info'
   * @param {number} [ms] how long it stays
   */
  function show(text, kind = '', ms = 3500) {
    live.textContent = text;
    if (note) note.remove(); // a second note replaces the first
    const mark = h('p', { class: kind ? `race-note ${kind}` : 'race-note', 'aria-hidden': 'true', text });
    note = mark;
    mine.prepend(mark);
    setTimeout(() => { mark.remove(); if (note === mark) note = null; }, ms);
  }

  /** @param {RejectedMessage} msg */
  function rejected(msg) {
    if (msg.code === 'round_over') return;
    play('bad');
    // a lost race names the seat that got there first, and its name when it has one
    let text;
    const winner = msg.by_name ?? (msg.by_seat !== undefined && msg.by_seat !== null ? nameOf(msg.by_seat) : null);
    if (winner !== null && typeof msg.margin_ms === 'number') {
      text = t('table.beatenByMargin', { name: winner, margin: formatMargin(msg.margin_ms, getLang()) });
    } else if (winner !== null) {
      text = t('table.beatenBy', { name: winner });
    } else {
      text = t('table.rejectedWhy', { reason: msg.reason || msg.code || '?' });
    }
    show(text);
  }

  // The winner of a race hears by how much it won (docs/protocol.md, "The margin of a race").
  /** @param {RaceWonMessage} msg */
  function won(msg) {
    show(t('table.wonByMargin', { name: msg.over_name, margin: formatMargin(msg.margin_ms, getLang()) }), 'won');
  }

  return { show, rejected, won };
}
