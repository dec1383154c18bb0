// @ts-check
// Translation: the page's messages come from the server's catalogues (GET /api/messages/{code}, the same
// gettext catalogues as the terminal's), loaded before the page draws anything. t(key, params) looks a
// message up and fills its {placeholders}; numbers are written the language's way (Intl: Bengali ০–৯).
//
// The language: the one chosen in the settings' menu (remembered: localStorage fs.language), else the one
// the server negotiated from Accept-Language (<meta name="foursquare-language">), else the first of
// navigator.languages the game speaks, else English. Choosing another re-renders every view, no reload.

const STORAGE_LANGUAGE = "fs.language";
const FALLBACK = "en";
// Other names of a language (ISO 639-1 tl is Tagalog, which CLDR files as Filipino), as the server knows them.
/** @type {Record<string, string>} */
const ALIASES = { tl: "fil", tgl: "fil", uzb: "uz", hrv: "hr", kan: "kn", ben: "bn", eng: "en" };

/**
 * A language's catalogue (GET /api/messages/{code}): a plural message is an object of CLDR plural categories.
 * @typedef {import("./api.js").Catalogue} Catalogue
 * @typedef {import("./api.js").Language} Language
 * @typedef {Record<string, string | number>} Params
 */

/** @type {Catalogue} */
let catalogue = { code: FALLBACK, name: "", locale: FALLBACK, direction: "ltr", plural_categories: [], messages: {} };
/** @type {Language[]} */
let languages = []; // the menu's
let plurals = new Intl.PluralRules(FALLBACK);
let numbers = new Intl.NumberFormat(FALLBACK);
/** @type {Set<() => void>} */
const listeners = new Set();

/**
 * The language remembered in this browser (without `value`), or remember `value`.
 * @param {string} [value]
 * @returns {string | null}
 */
function remembered(value) {
  try {
    if (value === undefined) return localStorage.getItem(STORAGE_LANGUAGE);
    localStorage.setItem(STORAGE_LANGUAGE, value);
  } catch {
    /* storage disabled: the choice lasts as long as the page */
  }
  return null;
}

/** The code of the language shown ("en", "bn", … or "qps", the tests' pseudo-language). */
export function getLocale() {
  return catalogue.code;
}

/** The locale of Intl's numbers and dates in the language shown (e.g. "uz-Latn"; English for "qps"). */
export function intlLocale() {
  return catalogue.locale;
}

/** The languages of the menu, each named in itself: [{code, name}]. */
export function availableLanguages() {
  return languages;
}

/**
 * Call `listener()` after each change of language (the page re-renders its views).
 * @param {() => void} listener
 */
export function onLanguageChange(listener) {
  listeners.add(listener);
}

/**
 * A language tag ("bn-BD", "uz-Latn-UZ", "tl") as the game's code, or null if the game does not speak it.
 * @param {string} tag
 * @returns {string | null}
 */
function ourCode(tag) {
  const base = String(tag).trim().split(/[-_.@]/)[0].toLowerCase();
  const code = ALIASES[base] ?? base;
  if (code === "qps") return code;
  if (code === "uz" && /[-_](cyrl|arab)\b/i.test(tag)) return null; // only Latin-script Uzbek is written
  return languages.some((language) => language.code === code) ? code : null;
}

/** No answer at all to a request for a catalogue (and no copy of it kept by the service worker). */
class Unreachable extends Error {}

/**
 * The JSON that `url` answers with (of the shape docs/api.md gives for it).
 * @template T
 * @param {string} url
 * @returns {Promise<T>}
 */
async function fetchJson(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch {
    throw new Unreachable(url);
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** @param {Catalogue} loaded */
function apply(loaded) {
  catalogue = loaded;
  plurals = new Intl.PluralRules(loaded.locale);
  numbers = new Intl.NumberFormat(loaded.locale);
  const root = document.documentElement;
  root.lang = loaded.code;
  root.dir = loaded.direction ?? "ltr";
  // The installed app's name and description in the language chosen here, not the browser's.
  const manifest = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="manifest"]'));
  if (manifest) manifest.href = `/static/manifest.webmanifest?lang=${encodeURIComponent(loaded.code)}`;
}

/** The language to start in: remembered, else negotiated by the server, else the browser's, else English. */
function startingLanguage() {
  const choice = remembered();
  const chosen = choice ? ourCode(choice) : null;
  if (chosen) return chosen;
  const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="foursquare-language"]'));
  const negotiated = meta?.content;
  const served = negotiated ? ourCode(negotiated) : null;
  if (served) return served;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag && ourCode(tag);
    if (code) return code;
  }
  return FALLBACK;
}

/** Load the menu's languages and the catalogue of the starting language. */
async function loadStartingLanguage() {
  /** @type {import("./api.js").Languages} */
  const menu = await fetchJson("/api/languages").catch((error) => {
    if (error instanceof Unreachable) throw error;
    return { languages: [] };
  });
  languages = menu.languages;
  const code = startingLanguage();
  try {
    apply(await fetchJson(`/api/messages/${encodeURIComponent(code)}`));
  } catch (error) {
    if (code === FALLBACK || error instanceof Unreachable) throw error;
    apply(await fetchJson(`/api/messages/${FALLBACK}`));
  }
}

/**
 * Load the menu's languages and the catalogue of the starting language (before the first render). Without
 * them the page has no word to say, not even that the server cannot be reached: while no answer comes (and
 * the service worker kept no copy), `waitForServer()` is awaited, then they are asked for again.
 * @param {() => Promise<void>} waitForServer
 */
export async function setupLanguage(waitForServer) {
  for (;;) {
    try {
      await loadStartingLanguage();
      break;
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      await waitForServer();
    }
  }
  // Another tab of this browser chose a language: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_LANGUAGE && event.key !== null) return;
    const chosen = ourCode(remembered() ?? "") ?? startingLanguage();
    if (chosen !== catalogue.code) showLanguage(chosen);
  });
}

/**
 * Show the page in the language `code` (loading its catalogue) and re-render every view.
 * @param {string} code
 */
async function showLanguage(code) {
  /** @type {Catalogue} */
  const loaded = await fetchJson(`/api/messages/${encodeURIComponent(code)}`);
  apply(loaded);
  for (const listener of listeners) listener();
}

/**
 * The player chose the language `code` in the menu: show it, and remember it in this browser.
 * @param {string} code
 */
export async function chooseLanguage(code) {
  const found = ourCode(code);
  if (!found) return;
  remembered(found);
  if (found !== catalogue.code) await showLanguage(found);
}

/**
 * @param {string} text
 * @param {Params} params
 */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ whole, /** @type {string} */ name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    // A number is written the language's way; identifiers (deal numbers, cell names) are passed as strings.
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/**
 * The message `key` with `params` substituted; plural messages pick their form from params.count.
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let value = catalogue.messages[key];
  if (value === undefined) {
    console.warn(`missing message ${key}`);
    return key;
  }
  if (typeof value === "object") {
    const form = plurals.select(Number(params.count ?? 0));
    value = value[form] ?? value.other;
  }
  return fill(value, params);
}

/**
 * Whether the catalogue has a message `key`.
 * @param {string} key
 */
export function hasMessage(key) {
  return key in catalogue.messages;
}

/**
 * Fill every element with data-i18n="key" (text) or data-i18n-label="key" (aria-label).
 * @param {ParentNode} root
 */
export function translateTree(root) {
  // Each selector names the data attribute read, so it is there: a key, not undefined.
  /** @type {(selector: string) => NodeListOf<HTMLElement>} */
  const all = (selector) => root.querySelectorAll(selector);
  for (const el of all("[data-i18n]")) el.textContent = t(/** @type {string} */ (el.dataset.i18n));
  for (const el of all("[data-i18n-label]")) el.setAttribute("aria-label", t(/** @type {string} */ (el.dataset.i18nLabel)));
  for (const el of all("[data-i18n-title]")) el.title = t(/** @type {string} */ (el.dataset.i18nTitle));
  /** @type {NodeListOf<HTMLInputElement>} */
  const inputs = root.querySelectorAll("[data-i18n-placeholder]");
  for (const el of inputs) el.placeholder = t(/** @type {string} */ (el.dataset.i18nPlaceholder));
}

// --- cards -------------------------------------------------------------------------------------

/** @type {Readonly<Record<string, string>>} */
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/**
 * Parse a short card name such as "7H" or "10S" into {rank, suit}.
 * @param {string} name
 */
export function parseCard(name) {
  const suit = name.slice(-1);
  const rankText = name.slice(0, -1);
  const rank = rankText === "A" ? 1 : Number(rankText);
  return { rank, suit, name };
}

/**
 * The short rank shown in a card corner: "A", "2" … "10".
 * @param {number} rank
 */
export function rankShort(rank) {
  const key = `rank.short.${rank}`;
  return hasMessage(key) ? t(key) : String(rank);
}

/**
 * "7♥"
 * @param {string} name
 */
export function cardSymbol(name) {
  const { rank, suit } = parseCard(name);
  return `${rankShort(rank)}${SUIT_SYMBOLS[suit]}`;
}

/**
 * "7 of hearts"
 * @param {string} name
 */
export function cardName(name) {
  const { rank, suit } = parseCard(name);
  const key = `rank.${rank}`;
  const rankWord = hasMessage(key) ? t(key) : String(rank);
  return t("card.name", { rank: rankWord, suit: t(`suit.${suit}`) });
}

/**
 * The accessible label of a top card: "7 of hearts, face up" / "face-down card (7 of hearts)".
 * @param {string} name
 * @param {boolean} faceUp
 */
export function cardLabel(name, faceUp) {
  return t(faceUp ? "card.faceUp" : "card.faceDown", { card: cardName(name) });
}

/**
 * "A, B and C" using the catalogue's separators.
 * @param {string[]} items
 */
export function joinList(items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  const head = items.slice(0, -1).join(t("list.sep"));
  return t("list.and", { a: head, b: items[items.length - 1] });
}

/**
 * @param {number} fraction
 * @param {number} [digits]
 */
export function percent(fraction, digits = 0) {
  return new Intl.NumberFormat(intlLocale(), { style: "percent", maximumFractionDigits: digits }).format(fraction);
}

/**
 * @param {number} value
 * @param {number} [digits]
 */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}

/** @param {number} value */
export function integer(value) {
  return numbers.format(value);
}

/** @param {string} iso */
export function dateTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // A 24-hour clock, as the terminal's: CLDR's Kannada and Bengali 12-hour clocks write AM/PM in Latin letters.
  /** @type {Intl.DateTimeFormatOptions} */
  const format = { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" };
  return new Intl.DateTimeFormat(intlLocale(), format).format(date);
}

/**
 * The house rules of a game as short tags: ["Standard rules"] or e.g. ["Diagonal adjacency", …].
 * @param {import("./api.js").Variant} variant
 */
export function variantText(variant) {
  const tags = [];
  tags.push(t(variant.adjacency === "diagonal" ? "variant.diagonal" : "variant.orthogonal"));
  if (variant.count_buried) tags.push(t("variant.countBuried"));
  if (variant.adjacency !== "diagonal" && !variant.count_buried) return [t("variant.standard")];
  return tags;
}
