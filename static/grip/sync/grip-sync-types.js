// The shapes the Devil's Grip page and its line to the server (grip-link.js) pass
// between them that no other module defines, as JSDoc types only: this file holds no
// code. The actions, operations and records are grip-rules.js's and grip-local.js's
// (`Action`, `GripOp`, `GripRecord`); the server's answers are grip-model.js's
// (`GripAnswer`, `GripSyncAnswer`). The server's side of these shapes is
// app/grip/service/shapes.py; docs/protocol.md describes the endpoints.

/** @typedef {import('../grip-local.js').GripOp} GripOp */
/** @typedef {import('../grip-local.js').GripRecord} GripRecord */
/** @typedef {import('../grip-model.js').GripSyncAnswer} GripSyncAnswer */

/**
 * What the browser keeps of the server's knowledge of a game, saved with it.
 * @typedef {{used_hint?: boolean, winnable?: boolean, par?: number | null}} SavedMeta
 */

/**
 * The game the link follows, saved in the browser after every change (grip-link.js;
 * storage.js keeps it as `GripGameSaved`). `id` and `token` are null for a game started
 * offline and not yet created on the server.
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
 * `status` 0 means the server could not be reached; `data` is the whole answer (a refused
 * batch's carries the server's game: grip-outbox.js `batchFailure` reads it).
 * @typedef {{status: number, detail?: unknown, data?: unknown}} RequestFailure
 */

export {};
