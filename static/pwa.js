// Makes the app installable and able to open without the server: registers the service
// worker (static/sw.js, served as /sw.js so that it controls every page of the app).
// Loaded by index.html on its own, so the game itself never depends on it: where service
// workers are unavailable (plain http on another machine's address, private modes), the
// app works as before, only without the offline page.

if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // not fatal: the app runs the same without it
    });
  });
}
