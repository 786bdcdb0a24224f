// Which letters a card's rank and suit are written with: the international indices
// (A K Q J, and S H D C for the small suit letter on a face) or the ones a language's
// own decks print (German K D B, Russian К Д В Т). Pure: no DOM, no storage; cards.js
// draws with the table chosen here, i18n.js fills {A} {K} {Q} {J} in texts with it, and
// the Devil's Grip rows ("2 → J") are labelled with it. Why each language gets the
// default it gets: docs/card-letters.md.

/**
 * A table of letters: `ranks` maps a rank code (A K Q J T) to what the card shows, `suits`
 * a suit code (S H D C) to the small letter on a face; a code missing from it is shown as is.
 * @typedef {{readonly id: string, readonly ranks: Readonly<Record<string, string>>, readonly suits: Readonly<Record<string, string>>}} Letters
 */

/** @type {Letters} */
export const INTERNATIONAL = Object.freeze({
  id: 'intl',
  ranks: Object.freeze({ A: 'A', K: 'K', Q: 'Q', J: 'J', T: '10' }),
  suits: Object.freeze({ S: 'S', H: 'H', D: 'D', C: 'C' }),
});

// Only languages whose decks (or players) have letters of their own are listed: English
// and Finnish decks print A K Q J, so for them the two choices are the same.
/** @type {Record<string, {ranks: Record<string, string>, suits: Record<string, string>}>} */
const LOCAL = {
  de: { ranks: { A: 'A', K: 'K', Q: 'D', J: 'B' }, suits: { S: 'P', H: 'H', D: 'Ka', C: 'Kr' } },
  ru: { ranks: { A: 'Т', K: 'К', Q: 'Д', J: 'В' }, suits: { S: 'П', H: 'Ч', D: 'Б', C: 'Т' } },
  ro: { ranks: { A: 'A', K: 'R', Q: 'D', J: 'V' }, suits: { S: 'P', H: 'Cu', D: 'Ca', C: 'T' } },
};

// What a language's players expect when they have not chosen: the letters their
// usual decks print.
/** @type {Record<string, string>} */
const USUAL = { en: 'intl', fi: 'intl', ro: 'intl', de: 'local', ru: 'local' };

// The setting's values: 'usual' (as the language's decks), 'local', 'intl'.
export const LETTER_CHOICES = ['usual', 'local', 'intl'];

/** @param {string} lang */
export function hasLocalLetters(lang) {
  return Object.prototype.hasOwnProperty.call(LOCAL, lang);
}

// The letters to draw with, for a language and the player's choice.
/**
 * @param {string} lang
 * @param {string} [choice] 'usual', 'local' or 'intl'
 * @returns {Letters}
 */
export function lettersFor(lang, choice = 'usual') {
  const mode = choice === 'usual' || !LETTER_CHOICES.includes(choice) ? (USUAL[lang] || 'intl') : choice;
  if (mode !== 'local' || !hasLocalLetters(lang)) return INTERNATIONAL;
  const local = LOCAL[lang];
  return {
    id: `local-${lang}`,
    ranks: { ...local.ranks, T: '10' },
    suits: { ...local.suits },
  };
}

// "10", "B", "7": a rank code (A23456789TJQK) as written on the card.
/**
 * @param {string} rank
 * @param {Letters} [letters]
 */
export function rankLetter(rank, letters = INTERNATIONAL) {
  return letters.ranks[rank] || rank;
}

/**
 * @param {string} suit
 * @param {Letters} [letters]
 */
export function suitLetter(suit, letters = INTERNATIONAL) {
  return letters.suits[suit] || suit;
}

// The text constants i18n.js fills in: {A} {K} {Q} {J}.
/** @param {Letters} [letters] */
export function letterVars(letters = INTERNATIONAL) {
  const { A, K, Q, J } = letters.ranks;
  return { A, K, Q, J };
}

// Devil's Grip's three chains, top row first: what each row builds ("2 → J").
/** @param {Letters} [letters] */
export function rowGoals(letters = INTERNATIONAL) {
  return [['2', 'J'], ['3', 'Q'], ['4', 'K']].map(([low, high]) => `${low} → ${rankLetter(high, letters)}`);
}

// The chains written out: "2-5-8-J".
/** @param {Letters} [letters] */
export function chains(letters = INTERNATIONAL) {
  return [['2', '5', '8', 'J'], ['3', '6', '9', 'Q'], ['4', '7', 'T', 'K']]
    .map((ranks) => ranks.map((r) => rankLetter(r, letters)).join('-'));
}
