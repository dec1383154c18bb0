// @ts-check
// Installing the page: the service worker (served by the server at /sw.js, see routes/pwa.py) keeps the
// page's own files so that it opens, and says the server cannot be reached, when the server is down.
// The web-app manifest is linked from index.html.

export function registerServiceWorker() {
  // Only in a secure context (https, or this machine): elsewhere the page simply works without it.
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* no service worker (private mode, blocked): nothing is cached, the page works the same */
  });
}
