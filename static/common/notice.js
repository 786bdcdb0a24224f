// The two pages the app shows when it cannot show itself: "you are offline" (the service
// worker's answer when the server cannot be reached) and "no such page" (the server's
// answer to a wrong address). Both are static/notice.html, which the server serves with
// <body data-notice="offline"> or "notFound"; this module writes the words in the
// player's language (the one the app chose or was set to).
//
// Their few words live here rather than in static/i18n/ so that the offline page stays
// small and works from the worker's cache alone, with no language table; tests/js/notice.test.mjs keeps the five
// languages complete.

import { chosenLanguage } from './language.js';
import { resolve, applyTo, storedSettings } from './settings.js';

/** @typedef {'offline' | 'notFound'} NoticeKind */
/** @typedef {{ title: string, body: string, action: string }} NoticeWords */

/** @type {Record<string, Record<NoticeKind, NoticeWords>>} */
export const NOTICE_TEXT = {
  en: {
    offline: {
      title: 'You are offline',
      body: "The game's server cannot be reached. Check your connection, or ask whoever runs the server whether it is up, then try again.",
      action: 'Try again',
    },
    notFound: {
      title: 'No such page',
      body: 'This address leads nowhere in the game. A room link looks like /r/ followed by the room code.',
      action: 'Go to the start page',
    },
  },
  ro: {
    offline: {
      title: 'Ești deconectat',
      body: 'Serverul jocului nu poate fi contactat. Verifică-ți conexiunea sau întreabă-l pe cel care ține serverul dacă funcționează, apoi încearcă din nou.',
      action: 'Încearcă din nou',
    },
    notFound: {
      title: 'Pagina nu există',
      body: 'Această adresă nu duce nicăieri în joc. Un link de cameră arată ca /r/ urmat de codul camerei.',
      action: 'Mergi la pagina de start',
    },
  },
  de: {
    offline: {
      title: 'Du bist offline',
      body: 'Der Server des Spiels ist nicht erreichbar. Prüfe deine Verbindung oder frag, wer den Server betreibt, ob er läuft, und versuch es dann noch einmal.',
      action: 'Erneut versuchen',
    },
    notFound: {
      title: 'Diese Seite gibt es nicht',
      body: 'Diese Adresse führt im Spiel nirgendwohin. Ein Raum-Link sieht aus wie /r/ und dahinter der Raumcode.',
      action: 'Zur Startseite',
    },
  },
  fi: {
    offline: {
      title: 'Olet offline-tilassa',
      body: 'Pelin palvelimeen ei saada yhteyttä. Tarkista yhteytesi tai kysy palvelimen ylläpitäjältä, onko se käynnissä, ja yritä sitten uudelleen.',
      action: 'Yritä uudelleen',
    },
    notFound: {
      title: 'Sivua ei ole',
      body: 'Tämä osoite ei johda mihinkään pelissä. Huoneen linkki on muotoa /r/ ja sen perässä huoneen koodi.',
      action: 'Siirry aloitussivulle',
    },
  },
  ru: {
    offline: {
      title: 'Нет подключения',
      body: 'Сервер игры недоступен. Проверьте подключение или спросите у того, кто держит сервер, работает ли он, и попробуйте ещё раз.',
      action: 'Попробовать снова',
    },
    notFound: {
      title: 'Такой страницы нет',
      body: 'Этот адрес никуда не ведёт. Ссылка на комнату выглядит как /r/ и код комнаты после него.',
      action: 'На главную',
    },
  },
};

// The game's name is a proper name, the same in every language.
const APP_NAME = "Demon & Devil's Grip";

/** @type {Record<NoticeKind, () => void>} */
const ACTIONS = {
  offline: () => window.location.reload(),
  notFound: () => window.location.assign('/'),
};

/** @param {NoticeKind} kind */
function show(kind) {
  // the player's table colour (and the rest of what settings.js puts on <html>)
  const reduce = Boolean(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  applyTo(document.documentElement, resolve(storedSettings(), { reducedMotion: reduce }));
  const lang = chosenLanguage();
  const text = (NOTICE_TEXT[lang] || NOTICE_TEXT.en)[kind];
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-text]')) {
    el.textContent = /** @type {Record<string, string>} */ (text)[/** @type {HTMLElement} */ (el).dataset.text || ''];
  }
  document.title = `${APP_NAME}: ${text.title}`;
  /** @type {HTMLElement} */ (document.getElementById('notice-action')).addEventListener('click', ACTIONS[kind]);
  if (kind === 'offline') window.addEventListener('online', ACTIONS.offline);
}

/** @type {string | undefined} */
const noticeKind = typeof document !== 'undefined' ? document.body?.dataset.notice : undefined;
if (typeof document !== 'undefined' && /** @type {string} */ (noticeKind) in ACTIONS) {
  show(/** @type {NoticeKind} */ (noticeKind));
}
