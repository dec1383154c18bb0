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
// What a reverse proxy answers while the server behind it is down: like no answer at all, where a copy is kept.
const GATEWAY_ERRORS = [502, 503, 504];

// This script's global scope: a service worker's (the WebWorker typings give `self` any worker's type).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** The catalogues of the page's languages: the only answers of the API kept. */
const catalogue = (/** @type {string} */ path) => path === "/api/languages" || path.startsWith("/api/messages/");

/** What is kept once fetched rather than up front: the catalogues, and the web fonts of the scripts shown. */
const keptOnceFetched = (/** @type {string} */ path) => catalogue(path) || path.startsWith("/static/fonts/");

/**
 * Fetch the catalogues and fonts `paths` afresh (an answer a page fetched before this worker controlled it, or one
 * the previous release kept) and keep them; one that cannot be fetched is left out.
 * @param {Cache} cache
 * @param {Iterable<string>} paths
 */
async function keepCatalogues(cache, paths) {
  const urls = [...paths].map((path) => new URL(path, worker.location.origin));
  const wanted = [...new Set(urls.filter((url) => url.origin === worker.location.origin).map((url) => url.pathname))]
    .filter(keptOnceFetched);
  await Promise.all(
    wanted.map(async (path) => {
      try {
        const response = await fetch(path, { cache: "no-cache", credentials: "same-origin" });
        if (response.ok) await cache.put(path, response);
      } catch {
        /* unreachable now: kept the next time the page fetches it */
      }
    }),
  );
}

/** The paths of the catalogues that the caches of earlier releases kept (the languages in use here). */
async function earlierCatalogues() {
  const paths = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("foursquare-") || name === CACHE) continue;
    for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
  }
  return paths;
}

// The page shell and its files are kept at once, so that even the tab of the first visit (which this worker
// does not control: it was fetched from the network) opens again from the cache if the server is down when it
// reloads; so are the catalogues an earlier release kept, this release's own.
worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([SHELL, ...FILES]);
      await keepCatalogues(cache, await earlierCatalogues());
      await worker.skipWaiting();
    })(),
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

// A page that this worker does not control (the first visit's) fetched its catalogues and fonts past it: it says
// which ({keep: [paths]}, see pwa.js), and they are kept too, so that the page opens offline in its language, its
// script drawn in its font.
worker.addEventListener("message", (event) => {
  const keep = event.data && typeof event.data === "object" ? event.data.keep : undefined;
  if (!Array.isArray(keep)) return;
  const paths = keep.filter((path) => typeof path === "string");
  event.waitUntil(caches.open(CACHE).then((cache) => keepCatalogues(cache, paths)));
});

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

/**
 * The copy kept of what `request` asks for: every page route is the same shell (index.html, which reads its
 * route from the URL), whatever language it was fetched in (the page then shows the one it remembers).
 * @param {Cache} cache
 * @param {Request} request
 */
function kept(cache, request) {
  const navigate = request.mode === "navigate";
  return cache.match(navigate ? SHELL : request, { ignoreSearch: true, ignoreVary: navigate });
}

/**
 * Whether `request` asks for a built file whose name carries its content's hash (static/dist/, web/assets.py):
 * its copy is good for ever, so it is answered from the cache without asking the server.
 * @param {Request} request
 */
const immutable = (request) => /^\/static\/dist\/[\w.-]+-[0-9a-f]{12}\.(?:js|css)$/.test(new URL(request.url).pathname);

/** @param {Request} request */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  const navigate = request.mode === "navigate";
  if (!navigate && immutable(request)) {
    const copy = await cache.match(request);
    if (copy) return copy;
  }
  let response;
  try {
    // A file is revalidated with the server (ETag), so the HTTP cache never serves an old release; the page
    // itself is served with Cache-Control: no-cache already (and a navigation's request cannot be altered).
    response = await (navigate ? fetch(request) : fetch(request, { cache: "no-cache" }));
  } catch (error) {
    const copy = await kept(cache, request);
    if (copy) return copy;
    throw error;
  }
  if (GATEWAY_ERRORS.includes(response.status)) return (await kept(cache, request)) ?? response;
  if (response.ok && !navigate) await cache.put(request, response.clone());
  return response;
}

worker.addEventListener("fetch", (event) => {
  if (ours(event.request)) event.respondWith(networkFirst(event.request));
});
