// The service worker: the app opens at once from its own copy of the shell, and says
// "you are offline" instead of the browser's error page when the server cannot be reached.
//
// The server fills in VERSION and SHELL when it serves this file as /sw.js
// (app/server/static_assets.py). A new version of the server means a new /sw.js, so the
// browser installs this worker again with a new cache; the old cache is dropped when the
// new worker takes over. Pages ask for files by versioned URL (/static/<version>/...), so
// a page never gets a mix of two versions' files.
//
// The strings and rules texts are kept once read (one language's, not all five). Never
// cached: the API and the room sockets. The pages always go to the network first, so
// that an upgrade is seen on the next visit; the last copy of the app's page is kept,
// so that Devil's Grip (/grip), which plays without the server (the page plays every move
// itself and sends them once the server is back: docs/protocol.md), opens with the server
// gone. Every other page then says "you are offline".

// `self` as what it is here: this file runs as a service worker, never in a page. The
// program's `lib` is the pages' ("dom"), so tsc takes `self` for a window; the few parts
// of a service worker's scope used here are typed below rather than adding the
// "webworker" lib, which would declare a worker's globals for every page's file too.
/** @typedef {Event & {waitUntil(promise: Promise<unknown>): void}} ExtendableEvent */
/** @typedef {ExtendableEvent & {request: Request, respondWith(answer: Promise<Response> | Response): void}} FetchEvent */
/**
 * @typedef {object} WorkerScope
 * @property {{(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void,
 *   (type: 'fetch', listener: (event: FetchEvent) => void): void}} addEventListener
 * @property {() => Promise<void>} skipWaiting
 * @property {{claim(): Promise<void>}} clients
 * @property {{origin: string}} location
 */
const sw = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

const VERSION = '__VERSION__';
const SHELL = ['__SHELL__'];
const CACHE = `shell-${VERSION}`;

const APP_PAGE = '/grip'; // the cache's key for the last copy of the app's page (index.html)
const PLAYS_OFFLINE = new Set(['/grip']);

// The app's page is fetched at install too: the page that installs the worker was loaded
// before it, and a person who then goes to Devil's Grip inside the app (the client routes
// on the path, no page load) would otherwise find no copy of it once the server is gone.
sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL);
    const page = await fetch('/').catch(() => null);
    if (page && page.ok) await cache.put(APP_PAGE, page);
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith('shell-') && name !== CACHE)
      .map((name) => caches.delete(name)));
    await sw.clients.claim();
  })());
});

/** @param {Request} request */
async function pageOrOffline(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  try {
    const answer = await fetch(request);
    // "/" and "/grip" are the same page (the client routes on the path): keep one copy
    if (answer.ok && (url.pathname === '/' || PLAYS_OFFLINE.has(url.pathname))) cache.put(APP_PAGE, answer.clone());
    return answer;
  } catch {
    const page = PLAYS_OFFLINE.has(url.pathname) ? await cache.match(APP_PAGE) : null;
    return page || (await cache.match('/offline')) || Response.error();
  }
}

/** @param {Request} request */
async function cachedFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const answer = await fetch(request);
  if (answer.ok) cache.put(request, answer.clone());
  return answer;
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(pageOrOffline(request));
  } else if (url.pathname.startsWith(`/static/${VERSION}/`)) {
    event.respondWith(cachedFirst(request));
  }
});
