// Makes the app installable and able to open without the server: registers the service
// worker (static/sw.js, served as /sw.js so that it controls every page of the app).
// Loaded by index.html on its own, so the game itself never depends on it: where service
// workers are unavailable (plain http on another machine's address, private modes), the
// app works as before, only without the offline page.
//
// Registration waits until the page has loaded and the browser is idle: installing the
// worker downloads the whole shell once more, which must not compete with the first
// seconds of a game (a phone on a slow network, or a race that starts at once).

const IDLE_WAIT_MS = 5000;

function register() {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // not fatal: the app runs the same without it
  });
}

/** @param {() => void} fn */
function whenIdle(fn) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(fn, { timeout: IDLE_WAIT_MS });
  // (the lib types every window with requestIdleCallback; Safari has none)
  else /** @type {Window} */ (window).setTimeout(fn, 1000);
}

if ('serviceWorker' in navigator && window.isSecureContext) {
  if (document.readyState === 'complete') whenIdle(register);
  else window.addEventListener('load', () => whenIdle(register), { once: true });
}
