// The Devil's Grip page's model, pure: the game as the server last answered it
// (POST/GET /api/grip: {id, number, state, legal, par, hint, can_undo, ...}), what the
// board shows (the game, or a step of a certified solution being replayed), and the
// words for cells, hints and solution steps. `t` is the translation function, passed in.

export const COLS = 8;
export const CELLS = 24;

// A new answer replaces the game; a par already known for the same game is kept (the
// answers to moves do not repeat it).
export function adopt(game, answer) {
  if (game && answer.id === game.id && answer.par === null && game.par !== null) return { ...answer, par: game.par };
  return answer;
}

// The state on the board: the replay's current step while a solution is shown.
export function shownState(game, replay) {
  if (replay) return replay.i === 0 ? replay.initial : replay.steps[replay.i - 1].state;
  return game ? game.state : null;
}

export function isFinished(game, replay) {
  const s = shownState(game, replay);
  return Boolean(replay || (s && (s.ended || s.over)));
}

// The game's result for the statistics, once it is over (null before).
export function resultOf(game) {
  if (!game || !(game.state.ended || game.state.over)) return null;
  const s = game.state;
  return { id: game.id, passes: s.passes_allowed ?? null, score: s.score, won: Boolean(s.won),
    assisted: Boolean(game.used_undo || game.used_hint), par: game.par };
}

// Whether the hint is about the stock, the talon, or a cell as its source or target.
export function hintTouches(hint, kind, value) {
  if (!hint) return false;
  if (kind === 'stock') return hint.type === 'deal' || hint.type === 'redeal';
  if (kind === 'talon') return hint.type === 'talon';
  if (kind === 'src') return (hint.type === 'move' && hint.src === value) || (hint.type === 'swap' && hint.a === value);
  if (kind === 'dst') return ((hint.type === 'move' || hint.type === 'talon') && hint.dst === value) || (hint.type === 'swap' && hint.b === value);
  return false;
}

export function cellName(c, t) {
  return t('grip.cell', { row: Math.floor(c / COLS) + 1, col: (c % COLS) + 1 });
}

// An action in words: as a hint ('grip.hintMove': "Move …") or as a step of a solution
// ('grip.stepMove').
export function actionText(a, t, prefix) {
  switch (a.type) {
    case 'deal': return t(`${prefix}Deal`);
    case 'redeal': return t(`${prefix}Redeal`);
    case 'talon': return t(`${prefix}Talon`, { cell: cellName(a.dst, t) });
    case 'move': return t(`${prefix}Move`, { from: cellName(a.src, t), to: cellName(a.dst, t) });
    case 'swap': return t(`${prefix}Swap`, { from: cellName(a.a, t), to: cellName(a.b, t) });
    default: return '';
  }
}

export const hintText = (a, t) => actionText(a, t, 'grip.hint');
export const stepText = (a, t) => actionText(a, t, 'grip.step');

// The score's rating ('rating.good' …) in words; the server's word when the page has none.
export function ratingText(s, t) {
  if (s.rating === null || s.rating === undefined) return '';
  const key = `rating.${String(s.rating).toLowerCase()}`;
  const text = t(key);
  return text === key ? String(s.rating) : text;
}

export function fmtAvg(x) { return x === null ? '—' : x.toFixed(1); }
export function fmtVsPar(x) { return x === null ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)}`; }
