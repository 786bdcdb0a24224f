// The shapes of Demon's wire messages (docs/protocol.md) as JSDoc types, for tsc
// --checkJs only: this module has no code, and no page imports it (a type import in a
// comment, `import('./protocol-types.js').RoomState`, is nothing to the browser; the
// service worker's copy of the shell holds it, as it holds every static file).
// The server's own definitions are app/protocol/server.py (server → client) and
// app/protocol/messages.py (client → server); these follow the fields the browser reads.

// ---- cards and actions --------------------------------------------------------------

/** @typedef {string} Card two characters: rank `A23456789TJQK` + suit `SHDC` ("TS") */

/** @typedef {'waste' | number} DemonSrc the waste or a tableau pile 0–6 */

/**
 * A Demon action (docs/protocol.md, "Cards and actions"): one flat shape rather than a
 * union of four, because the page reads `src` and `pile` of any action it holds.
 * @typedef {object} DemonAction
 * @property {'draw' | 'recycle' | 'tableau' | 'foundation'} type
 * @property {DemonSrc} [src] `tableau` and `foundation`
 * @property {number} [dst] `tableau`: the pile 0–6
 * @property {number} [count] `tableau`: how many face-up cards move
 * @property {number | null} [pile] `foundation`: the pile, or null for any that takes it
 */

/** @typedef {{src: DemonSrc, count: number}} DemonSelection the cards a Demon player holds */

// ---- the public state (`snapshot.state`) ----------------------------------------------

/**
 * The server's phases, and 'replay': the page's own, for a round watched again (replay/).
 * @typedef {'lobby' | 'countdown' | 'playing' | 'round_over' | 'match_over' | 'replay'} Phase
 */

/** @typedef {'easy' | 'medium' | 'hard'} BotLevel */

/**
 * @typedef {object} Player
 * @property {string} id stable for the life of the room ("p3")
 * @property {number | null} seat the index in the current round; null for nobody seated
 * @property {string} name
 * @property {boolean} connected
 * @property {boolean} [left]
 * @property {boolean} [absent]
 * @property {boolean} [voted]
 * @property {number | null} [total]
 * @property {number} colour card-back colour index 0–7
 * @property {BotLevel | null} [bot] the level of a computer player, else null
 */

/**
 * @typedef {object} Spectator
 * @property {string} id
 * @property {string} name
 * @property {boolean} [connected]
 * @property {boolean} [next_round] a free seat waits for them at the next round
 */

/**
 * @typedef {object} RoomOptions
 * @property {number} [rounds]
 * @property {number | null} [time_limit_s]
 * @property {number} [max_players]
 */

/**
 * @typedef {object} Pile
 * @property {number} down face-down cards
 * @property {Card[]} up face-up cards, top last
 */

/**
 * One seat's layout, as everybody sees it (`seat_view`).
 * @typedef {object} SeatView
 * @property {Pile[]} tableau
 * @property {number} stock
 * @property {Card[]} waste the visible top cards (at most three, top last)
 * @property {number} waste_count
 */

/**
 * @typedef {object} Foundation
 * @property {Card} top
 * @property {number} seat
 * @property {number} count
 */

/**
 * @typedef {object} Round
 * @property {SeatView[]} seats
 * @property {(Foundation | null)[]} foundations
 * @property {number[]} [stuck]
 * @property {number[]} [votes]
 * @property {number[]} [cards_home]
 * @property {number[]} [absent]
 * @property {boolean} [bots_finish]
 * @property {boolean} [stalled] Nerts: a stall was played and no card went home since
 */

/**
 * @typedef {object} RoundResult
 * @property {number} [round_no]
 * @property {'demon' | 'nerts' | 'stuck' | 'vote' | 'time' | 'abandoned'} reason
 * @property {string | null} winner the id of who went out, or null
 * @property {Record<string, number>} scores by player id
 * @property {Record<string, number>} totals by player id
 * @property {boolean} [match_over]
 * @property {string[]} [winners] the ids with the best total
 */

/**
 * The room's public state. Every key may be missing from a state the page builds up
 * from events before its first snapshot, so the readers check what they read.
 * @typedef {object} RoomState
 * @property {string} [code]
 * @property {Phase} [phase]
 * @property {string | null} [host] the host's player id
 * @property {RoomOptions} [options]
 * @property {Player[]} [players]
 * @property {Spectator[]} [spectators]
 * @property {number} [round_no]
 * @property {number | null} [countdown_ends_in_ms]
 * @property {number | null} [time_left_ms]
 * @property {Round | null} [round]
 * @property {unknown[]} [history]
 * @property {RoundResult | null} [result]
 * @property {string} [daily] a daily race's room: its day (no coach, bots-finish or rematch)
 * @property {boolean} [open] an open table (listed for anyone on the server); absent when not
 * @property {number | null} [fill_at] a "Play now" lobby: epoch ms when bots fill it and it starts
 */

// ---- events (`event.event`) -------------------------------------------------------------

/**
 * What the rules engine did in a move (`move.engine[]`).
 * @typedef {object} EngineEvent
 * @property {'drew' | 'recycled' | 'moved' | 'turned_up' | 'played' | 'round_ended'} type
 * @property {Card} [card] `played`, `turned_up`
 * @property {number} [pile] `played`
 * @property {Card[]} [cards] `moved`
 * @property {number} [dst] `moved`
 * @property {Card[]} [waste] `drew`: the waste's visible cards after the draw
 */

/** @typedef {{pile: number, top: Card, seat: number, count: number}} FoundationChange */

/**
 * @typedef {object} MoveEvent
 * @property {'move'} kind
 * @property {number} seat
 * @property {DemonAction} [action]
 * @property {EngineEvent[]} [engine]
 * @property {SeatView} seat_view
 * @property {FoundationChange[]} foundations only the changed piles
 * @property {number[]} stuck
 * @property {number[]} cards_home
 */

/**
 * @typedef {{kind: 'room', state: RoomState}
 *   | {kind: 'countdown', ends_in_ms: number}
 *   | {kind: 'round_started', round: Round, round_no: number, time_left_ms?: number | null}
 *   | MoveEvent
 *   | {kind: 'votes', votes: number[], bots_finish?: boolean}
 *   | {kind: 'absent', absent: number[], stuck: number[]}
 *   | {kind: 'stall', seats: number[], stock_counts: number[]}
 *   | {kind: 'round_ended', result: RoundResult}} DemonEvent
 */

// ---- server → client messages -------------------------------------------------------------

/** @typedef {{type?: 'welcome', code?: string, you?: string, seat?: number | null, v?: number, epoch?: string | null}} WelcomeMessage */

/** @typedef {{type?: 'legal', v?: number, actions?: DemonAction[]}} LegalMessage */

/** @typedef {{type?: 'ack', id: string, v?: number, duplicate?: boolean}} AckMessage */

/**
 * @typedef {object} RejectedMessage
 * @property {string} id
 * @property {string} [code]
 * @property {string} [reason]
 * @property {number | null} [by_seat]
 * @property {string | null} [by_name]
 * @property {number} [pile]
 * @property {number} [margin_ms]
 */

/** @typedef {{pile: number, over_seat: number, over_name: string, margin_ms: number}} RaceWonMessage */

/** @typedef {{code?: string, message?: string}} ErrorMessage */

/** @typedef {{player: string, emote: string}} EmoteMessage */

/**
 * A message to the server (docs/protocol.md, "Client → server"): its `type` and fields.
 * @typedef {{type: string} & Record<string, unknown>} ClientMessage
 */

export {};
