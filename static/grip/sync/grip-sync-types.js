// The shapes the Devil's Grip page and its line to the server (grip-link.js) pass
// between them, as JSDoc types only: this file holds no code. The server's side of
// these shapes is app/grip/service/shapes.py; docs/protocol.md describes the endpoints.

/**
 * One action of the rules (grip-rules.js): a build, a swap, a deal, the talon, the end.
 * @typedef {{type: string} & Record<string, unknown>} GripAction
 */

/**
 * One operation as the server's batch endpoint takes it (POST /api/grip/{id}/moves).
 * @typedef {{op: 'action', action: GripAction} | {op: 'undo'} | {op: 'redo'} | {op: 'end'}} GripOp
 */

/**
 * A game's record as the server keeps it: the actions played, the redo stack (next first)
 * and whether undo was used.
 * @typedef {object} GripRecord
 * @property {number} number the deal number
 * @property {number | null} passes the pass limit (null: unlimited)
 * @property {GripAction[]} actions
 * @property {GripAction[]} redo
 * @property {boolean} used_undo
 */

/**
 * The server's answer about a game (a sync answer, a batch's answer, a new game): its
 * record, its count of operations (`seq`) and what only the server knows.
 * @typedef {GripRecord & {
 *   id?: string, token?: string, seq: number, state?: unknown,
 *   par?: number | null, used_hint?: boolean, winnable?: boolean, explain?: unknown,
 * }} GripAnswer
 */

/**
 * What the browser keeps of the server's knowledge of a game, saved with it.
 * @typedef {{used_hint?: boolean, winnable?: boolean, par?: number | null}} SavedMeta
 */

/**
 * The game the link follows, saved in the browser after every change (grip-link.js).
 * `id` and `token` are null for a game started offline and not yet created on the server.
 * @typedef {object} SavedGame
 * @property {string | null} id
 * @property {string | null} token
 * @property {boolean} daily
 * @property {number} number
 * @property {number | null} passes
 * @property {number} seq the server's count of operations when it last answered
 * @property {GripRecord} acked the server's record as last acknowledged
 * @property {GripOp[]} pending operations played since, not yet acknowledged
 * @property {SavedMeta} meta
 */

/**
 * How a failed request reads: an ApiError (common/api.js) as far as the page uses it.
 * `status` 0 means the server could not be reached.
 * @typedef {{status: number, detail?: unknown, data?: any}} RequestFailure
 */

export {};
