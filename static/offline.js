// The offline page (static/offline.html): shown by the service worker when a page of the
// app is opened and the server cannot be reached. Written in the player's language, and
// it tries again by itself as soon as the browser says it is back online.

import { getLang, t } from './i18n.js';

function translate() {
  document.documentElement.lang = getLang();
  for (const el of document.querySelectorAll('[data-text]')) el.textContent = t(el.dataset.text);
  document.title = `${t('app.title')}: ${t('offline.title')}`;
}

function retry() {
  window.location.reload();
}

translate();
document.getElementById('offline-retry').addEventListener('click', retry);
window.addEventListener('online', retry);
