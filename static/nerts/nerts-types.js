// The shapes of a Nerts room's wire (docs/protocol.md, /work plan "protocol 2") as JSDoc
// types, for tsc --checkJs only: no code. Everything else of a Nerts room (players,
// foundations, votes, results) has Demon's shapes, demon/protocol-types.js.

/** @typedef {'nerts' | 'waste' | number} NertsSrc the Nerts pile, the waste, or a work pile 0–3 */

/**
 * A Nerts action, without the seat (the `legal` list; the client's `action`).
 * @typedef {object} NertsAction
 * @property {'draw' | 'recycle' | 'work' | 'foundation'} type
 * @property {NertsSrc} [src] `work` and `foundation`
 * @property {number} [dst] `work`: the work pile 0–3
 * @property {number} [count] `work`: how many cards move (more than one only from a work pile)
 * @property {number | null} [pile] `foundation`: the pile, or null for any pile that takes it
 */

/** @typedef {{src: NertsSrc, count: number}} NertsSelection the cards a Nerts player holds */

/**
 * One seat's layout as everybody sees it (`round.seats[i]`, a move's `seat_view`).
 * @typedef {object} NertsSeatView
 * @property {number} seat
 * @property {string | null} nerts_top the Nerts pile's face-up top card
 * @property {number} nerts_count cards in the Nerts pile, its top included
 * @property {string[][]} work the four work piles, bottom first, all face up
 * @property {number} stock
 * @property {string[]} waste the cards on view, top last (three under draw 3, one under draw 1)
 * @property {number} waste_count
 * @property {number} [on_foundations]
 * @property {boolean} [absent]
 */

/**
 * What the rules engine did in a Nerts move (`move.engine[]`).
 * @typedef {object} NertsEngineEvent
 * @property {string} type drew, recycled, moved, filled, turned_up, played, stalled, nerts, round_ended
 * @property {number | null} [seat]
 * @property {string} [card] `played`, `turned_up`, `filled`
 * @property {number} [pile] `played`, `filled`
 * @property {NertsSrc} [src] `played`, `moved`
 * @property {number} [dst] `moved`
 * @property {string[]} [cards] `moved`
 * @property {string[]} [waste] `drew`
 * @property {number} [nerts_count] `turned_up`
 */

/** @typedef {{kind: 'stall', seats: number[], stock_counts: number[]}} StallEvent */

/**
 * Nerts' house rules (`state.options.house_rules`).
 * @typedef {{draw?: number, racing_spaces?: boolean, stall?: boolean}} HouseRules
 */

export {};
