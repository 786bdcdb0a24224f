// What only the server knows of a Devil's Grip game, as the page keeps it, pure: the par,
// the hint shown, whether the game was aided (a hint, or a solution seen), whether the
// deal is certified winnable, why it ended. The page's own game (grip-local.js) and this
// make the view the panels draw (answerOf). Each function returns a new object.

/** @typedef {import('./grip-sync-types.js').SavedMeta} SavedMeta */
/** @typedef {import('../grip-rules.js').Action} Action */
/** @typedef {import('../grip-model.js').GripHintInfo} GripHintInfo */
/** @typedef {import('../grip-model.js').GripEndExplanation} GripEndExplanation */

/**
 * @typedef {object} GripMeta
 * @property {boolean} [used_hint] aided: a hint asked, or this deal's solution seen
 * @property {boolean} [winnable] a certified deal
 * @property {number | null} [par] the score the hints reach (null: not known yet)
 * @property {Action | null} [hint] the hint shown, null once the player moved
 * @property {GripHintInfo | null} [hint_info]
 * @property {GripEndExplanation | null} [explain] why the deal ended (rule 10)
 */

/** How many deals this browser remembers having seen the solution of. */
export const SOLUTIONS_REMEMBERED = 200;

/**
 * The deals whose solution this browser saw, from the saved preference (anything else: none).
 * @param {unknown} pref
 * @returns {number[]}
 */
export function solutionsSeenOf(pref) {
  return Array.isArray(pref) ? pref : [];
}

/**
 * The list with `number` first (once), the oldest forgotten past SOLUTIONS_REMEMBERED.
 * @param {number[]} seen
 * @param {number} number
 * @returns {number[]}
 */
export function withSolutionSeen(seen, number) {
  return [number, ...seen.filter((n) => n !== number)].slice(0, SOLUTIONS_REMEMBERED);
}

/**
 * The saved pass limit preference: 1, 3 or unlimited (null); anything else is unlimited.
 * @param {unknown} pref
 * @returns {1 | 3 | null}
 */
export function passesOf(pref) {
  return pref === 1 || pref === 3 ? pref : null;
}

/**
 * The meta of a game followed: what was saved with it, aided when this browser saw the
 * deal's solution.
 * @param {SavedMeta | undefined} saved
 * @param {number} number
 * @param {number[]} seen
 * @returns {GripMeta}
 */
export function metaOfFollowed(saved, number, seen) {
  const meta = saved || {};
  return seen.includes(number) ? { ...meta, used_hint: true } : meta;
}

/**
 * The meta after a server answer about the game. A deal whose solution this browser saw
 * is an aided game, however it was started (docs/rules.md). A par already known stays
 * when the answer has none.
 * @param {GripMeta} meta
 * @param {{number: number | null, used_hint?: boolean, winnable?: boolean, par?: number | null, explain?: GripEndExplanation | null}} answer
 * @param {number[]} seen
 * @returns {GripMeta}
 */
export function metaFromAnswer(meta, answer, seen) {
  const aided = Boolean(answer.used_hint) || (answer.number !== null && seen.includes(answer.number));
  return { ...meta, used_hint: aided, winnable: answer.winnable,
    par: answer.par ?? meta.par ?? null, explain: answer.explain ?? null };
}

/**
 * What is saved in the browser with the game.
 * @param {GripMeta} meta
 * @returns {SavedMeta}
 */
export function savedMetaOf(meta) {
  return { used_hint: meta.used_hint, winnable: meta.winnable, par: meta.par };
}

/**
 * After a move: the hint and the explanation were about the position before it.
 * @param {GripMeta} meta
 * @returns {GripMeta}
 */
export function withoutHint(meta) {
  return { ...meta, hint: null, hint_info: null, explain: null };
}

/**
 * A hint answered.
 * @param {GripMeta} meta
 * @param {{hint: Action | null, hint_info: GripHintInfo | null, used_hint: boolean}} answer
 * @returns {GripMeta}
 */
export function withHint(meta, answer) {
  return { ...meta, hint: answer.hint, hint_info: answer.hint_info, used_hint: answer.used_hint };
}
