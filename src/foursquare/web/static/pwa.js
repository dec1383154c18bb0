// @ts-check
// Installing the page: the service worker (served by the server at /sw.js, see routes/pwa.py) keeps the
// page's own files so that it opens, and says the server cannot be reached, when the server is down.
// The web-app manifest is linked from index.html.

import { getLocale, onLanguageChange } from "./i18n.js";

export function registerServiceWorker() {
  // Only in a secure context (https, or this machine): elsewhere the page simply works without it.
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* no service worker (private mode, blocked): nothing is cached, the page works the same */
  });
  keepCatalogues();
  onLanguageChange(keepCatalogues);
  // A script's font is fetched when its text is first drawn (Bengali, Kannada): kept once loaded.
  document.fonts.addEventListener("loadingdone", keepCatalogues);
}

/**
 * A page the service worker does not control (the first visit's: the worker was installed by it) fetched its
 * catalogues and fonts past the worker, which keeps only what goes through it: tell it which to keep, so that
 * this tab, reloaded while the server is down, opens in its language and its script's font (a game is played
 * offline in it). A controlled page's fetches are kept anyway.
 */
async function keepCatalogues() {
  const registration = await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller) return;
  const fonts = performance
    .getEntriesByType("resource")
    .map((entry) => new URL(entry.name).pathname)
    .filter((path) => path.startsWith("/static/fonts/"));
  const catalogues = ["/api/languages", `/api/messages/${encodeURIComponent(getLocale())}`];
  registration.active?.postMessage({ keep: [...catalogues, ...fonts] });
}
