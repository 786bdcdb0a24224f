// The offline page (static/offline.html): shown by the service worker when a page of the
// app is opened and the server cannot be reached. Written in the player's language (the
// one the app chose or was set to), and it tries again by itself as soon as the browser
// says the network is back.
//
// Its few words live here rather than in i18n.js so that the page stays small and works
// from the worker's cache alone; tests/js/offline.test.mjs keeps the five languages
// complete.

import { getLang, t } from './i18n.js';

export const OFFLINE_TEXT = {
  en: {
    title: 'You are offline',
    body: "The game's server cannot be reached. Check your connection, or ask whoever runs the server whether it is up, then try again.",
    retry: 'Try again',
  },
  ro: {
    title: 'Ești deconectat',
    body: 'Serverul jocului nu poate fi contactat. Verifică-ți conexiunea sau întreabă-l pe cel care ține serverul dacă funcționează, apoi încearcă din nou.',
    retry: 'Încearcă din nou',
  },
  de: {
    title: 'Du bist offline',
    body: 'Der Server des Spiels ist nicht erreichbar. Prüfe deine Verbindung oder frag, wer den Server betreibt, ob er läuft, und versuch es dann noch einmal.',
    retry: 'Erneut versuchen',
  },
  fi: {
    title: 'Olet offline-tilassa',
    body: 'Pelin palvelimeen ei saada yhteyttä. Tarkista yhteytesi tai kysy palvelimen ylläpitäjältä, onko se käynnissä, ja yritä sitten uudelleen.',
    retry: 'Yritä uudelleen',
  },
  ru: {
    title: 'Нет подключения',
    body: 'Сервер игры недоступен. Проверьте подключение или спросите у того, кто держит сервер, работает ли он, и попробуйте ещё раз.',
    retry: 'Попробовать снова',
  },
};

function translate() {
  const lang = getLang();
  const text = OFFLINE_TEXT[lang] || OFFLINE_TEXT.en;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-text]')) el.textContent = text[el.dataset.text];
  document.title = `${t('app.title')}: ${text.title}`;
}

function retry() {
  window.location.reload();
}

if (typeof document !== 'undefined') {
  translate();
  document.getElementById('offline-retry').addEventListener('click', retry);
  window.addEventListener('online', retry);
}
