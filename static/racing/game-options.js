// Which racing game a room plays, Demon or Nerts, and Nerts' house rules H2-H4 (draw
// three or one, Racing Demon spaces, the stall), as every page around a round reads and
// writes them: the lobby and the home page choose them, the table's status bar, the
// results, the replay and the recent games name them. Pure: no DOM; the words come from
// the `t` a caller passes in (static/common/i18n.js).
//
// On the wire (docs/protocol.md, "Room options"): a Demon room's options have no `game`
// key; a Nerts room's have `game: "nerts"` and `house_rules: {draw, racing_spaces, stall}`.
// A value the page does not know counts as the default, never as an error: the page
// shows what it can and the server stays the judge of what is allowed.

/** @typedef {'demon' | 'nerts'} Game */
/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */

/**
 * Nerts' house rules: H2 `draw` (cards a draw turns), H3 `racing_spaces` (an emptied work
 * pile is filled at once from the Nerts pile), H4 `stall` (everyone stuck: the stall is
 * played before the round ends).
 * @typedef {{ draw: 1 | 3, racing_spaces: boolean, stall: boolean }} HouseRules
 */

/** @typedef {{ game: Game, house_rules: HouseRules }} GameChoice */

/** @type {readonly Game[]} */
export const GAMES = ['demon', 'nerts'];

/** @type {Readonly<HouseRules>} */
export const HOUSE_RULE_DEFAULTS = Object.freeze({ draw: 3, racing_spaces: false, stall: true });

// The game of anything that may name one (room options, a replay, a finished match):
// no `game`, or one this page does not know, is Demon (older records and rooms have none).
/**
 * @param {unknown} holder any object (or nothing): room options, a replay, a match
 * @returns {Game}
 */
export function gameOf(holder) {
  return field(holder, 'game') === 'nerts' ? 'nerts' : 'demon';
}

/**
 * @param {unknown} holder
 * @param {string} name
 */
function field(holder, name) {
  return holder && typeof holder === 'object' ? /** @type {Record<string, unknown>} */ (holder)[name] : undefined;
}

// Every house rule, each missing or unknown value taking its default.
/**
 * @param {unknown} raw the `house_rules` object as it came
 * @returns {HouseRules}
 */
export function houseRulesOf(raw) {
  const given = /** @type {Partial<Record<keyof HouseRules, unknown>>} */ (raw && typeof raw === 'object' ? raw : {});
  return {
    draw: given.draw === 1 || given.draw === 3 ? given.draw : HOUSE_RULE_DEFAULTS.draw,
    racing_spaces: typeof given.racing_spaces === 'boolean' ? given.racing_spaces : HOUSE_RULE_DEFAULTS.racing_spaces,
    stall: typeof given.stall === 'boolean' ? given.stall : HOUSE_RULE_DEFAULTS.stall,
  };
}

// The game and house rules a room's options (or a stored choice) hold.
/**
 * @param {unknown} options room options (their `game` and `house_rules`), or nothing
 * @returns {GameChoice}
 */
export function choiceOf(options) {
  return { game: gameOf(options), house_rules: houseRulesOf(field(options, 'house_rules')) };
}

// What a request carries for a choice (the lobby's `options` message, POST /api/rooms and
// /api/rooms/practice): Nerts its game and house rules; Demon nothing, since no `game`
// means Demon, except `game: "demon"` when the room plays Nerts now (`current`, the room's
// options), to switch it back.
/**
 * @param {GameChoice} choice
 * @param {unknown} [current] the room's options now
 * @returns {{ game?: Game, house_rules?: HouseRules }}
 */
export function wireFields(choice, current = null) {
  if (choice.game === 'nerts') return { game: 'nerts', house_rules: houseRulesOf(choice.house_rules) };
  return gameOf(current) === 'nerts' ? { game: 'demon' } : {};
}

/**
 * @param {Game} game
 * @param {Translate} t
 */
export function gameName(game, t) {
  return t(game === 'nerts' ? 'game.nerts' : 'game.demon');
}

// The house rules in short form, as [key, vars] pairs: the draw always (players ask for it
// first), the others only when they differ from the default.
/**
 * @param {HouseRules} rules
 * @returns {[string, Record<string, unknown>][]}
 */
export function houseRuleParts(rules) {
  /** @type {[string, Record<string, unknown>][]} */
  const parts = [['house.short.draw', { n: rules.draw }]];
  if (rules.racing_spaces) parts.push(['house.short.racingSpaces', {}]);
  if (!rules.stall) parts.push(['house.short.noStall', {}]);
  return parts;
}

// The game in one line, for the table's status bar and the replay's heading:
// "Demon", or "Nerts · draw 1 · Racing Demon spaces". The house rules only when
// `options` names them: a replay's answer may carry the game alone, and defaults shown
// for rules nobody stated could be untrue.
/**
 * @param {unknown} options room options, or nothing (Demon)
 * @param {Translate} t
 * @returns {string}
 */
export function gameLine(options, t) {
  const { game, house_rules: rules } = choiceOf(options);
  const words = [gameName(game, t)];
  const stated = field(options, 'house_rules');
  if (game === 'nerts' && stated && typeof stated === 'object') {
    for (const [key, vars] of houseRuleParts(rules)) words.push(t(key, vars));
  }
  return words.join(' · ');
}

// A score as the results show it: a negative one (Nerts, N14) with a real minus sign,
// "−4", never "-4" read as a hyphen, "4" or "--4".
/**
 * @param {unknown} n
 * @returns {string}
 */
export function formatScore(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '0';
  return n < 0 ? `\u2212${Math.abs(n)}` : String(n);
}

// The word called when a player goes out, by the round's end reason: "Demon!" or
// "Nerts!"; null for a round that ended any other way.
/**
 * @param {unknown} reason
 * @returns {string | null} the i18n key
 */
export function callKey(reason) {
  if (reason === 'demon') return 'table.demonCall';
  if (reason === 'nerts') return 'game.nertsCall';
  return null;
}

const KNOWN_REASONS = ['stuck', 'vote', 'time', 'abandoned'];

// Why the round ended, in a sentence: "Ann called “Nerts!”", "Time is up."…
// A round a person handed to the bots (the round's `bots_finish`) ends by the bots'
// votes: that is said as what happened, not as "the players voted".
/**
 * @param {unknown} reason the result's `reason`
 * @param {string | null} winnerName who went out (for `demon` and `nerts`)
 * @param {Translate} t
 * @param {boolean} [botsFinished] the round's person let the bots finish it
 * @returns {string}
 */
export function reasonText(reason, winnerName, t, botsFinished = false) {
  const name = winnerName || '?';
  if (reason === 'demon') return t('result.demon', { name });
  if (reason === 'nerts') return t('result.nertsCalled', { name });
  if (reason === 'vote' && botsFinished) return t('result.botsFinished');
  return t(KNOWN_REASONS.includes(/** @type {string} */ (reason)) ? `result.${reason}` : 'result.ended');
}
