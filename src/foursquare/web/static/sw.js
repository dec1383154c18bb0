// @ts-check
// The service worker: it keeps a copy of the page's own files (the page shell and everything under
// /static/) so that the page still opens, and says the server cannot be reached, when it is down.
// The API is never cached — every game answer comes from the server — except the page's message catalogues
// (/api/languages, /api/messages/{code}): like the web fonts (static/fonts/, which the list below leaves
// out), each is kept once fetched, so the page opens offline in the language in use, while nobody downloads
// every language's catalogue and font up front.
//
// Network first, the cache as a fallback: the page is a few dozen small files from the same server, so
// asking the server each time (a 304 mostly) costs little and guarantees that an update arrives with the
// next load, with every file from one release — no page shell of one release running scripts of another.
// The server writes VERSION (a digest of the static files) and FILES into this script when it serves it
// (routes/pwa.py), so a new release is a new service worker with a new cache, and the old cache is deleted.

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `foursquare-${VERSION}`;
const SHELL = "/";

// This script's global scope: a service worker's (the WebWorker typings give `self` any worker's type).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...FILES]))
      .then(() => worker.skipWaiting()),
  );
});

// A new release takes over at once (skipWaiting) and drops the old release's cache. A page is controlled
// from its next load: the first one was fetched from the network anyway.
worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => names.filter((name) => name.startsWith("foursquare-") && name !== CACHE))
      .then((old) => Promise.all(old.map((name) => caches.delete(name)))),
  );
});

/** The catalogues of the page's languages: the only answers of the API kept. */
const catalogue = (/** @type {string} */ path) => path === "/api/languages" || path.startsWith("/api/messages/");

/**
 * Whether the service worker answers `request`: the page's own GETs and its catalogues, never the rest of the API.
 * @param {Request} request
 */
function ours(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return false;
  if (catalogue(url.pathname)) return true;
  if (url.pathname.startsWith("/api/")) return false;
  if (request.mode === "navigate") return true;
  return url.pathname.startsWith("/static/");
}

/** @param {Request} request */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  const navigate = request.mode === "navigate";
  try {
    // A file is revalidated with the server (ETag), so the HTTP cache never serves an old release; the page
    // itself is served with Cache-Control: no-cache already (and a navigation's request cannot be altered).
    const response = await (navigate ? fetch(request) : fetch(request, { cache: "no-cache" }));
    if (response.ok && !navigate) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    // Every page route is the same shell (index.html); the page reads its route from the URL.
    const cached = await cache.match(navigate ? SHELL : request, { ignoreSearch: true });
    if (cached) return cached;
    throw error;
  }
}

worker.addEventListener("fetch", (event) => {
  if (ours(event.request)) event.respondWith(networkFirst(event.request));
});
