// Why a Devil's Grip deal is over, in the player's language. The numbers come from the
// server (app/engine/grip_explain.py); this only chooses the sentence. Pure: `t` is the
// translation function, passed in.

/**
 * @param {import('./grip-model.js').GripEndExplanation | null | undefined} why
 * @param {import('../common/i18n.js').Translate} t
 * @returns {string}
 */
export function explainText(why, t) {
  if (!why) return '';
  if (why.by === 'won') return t('why.won');
  if (why.by === 'player') {
    return `${t('why.player')} ${t('why.stillPossible', { moves: why.whole_moves, fits: why.showable_fit })}`;
  }
  if (why.open_piles === 0) return t('why.closed');
  if (why.showable === 0) return t('why.noTalon');
  return t('why.rule', { n: why.showable });
}
