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
const ALIASES = { tl: "fil", tgl: "fil", uzb: "uz", hrv: "hr", kan: "kn", ben: "bn", eng: "en" };

let catalogue = { code: FALLBACK, name: "", locale: FALLBACK, direction: "ltr", messages: {} };
let languages = []; // [{code, name}] of the menu
let plurals = new Intl.PluralRules(FALLBACK);
let numbers = new Intl.NumberFormat(FALLBACK);
const listeners = new Set();

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

/** Call `listener()` after each change of language (the page re-renders its views). */
export function onLanguageChange(listener) {
  listeners.add(listener);
}

/** A language tag ("bn-BD", "uz-Latn-UZ", "tl") as the game's code, or null if the game does not speak it. */
function ourCode(tag) {
  const base = String(tag).trim().split(/[-_.@]/)[0].toLowerCase();
  const code = ALIASES[base] ?? base;
  if (code === "qps") return code;
  if (code === "uz" && /[-_](cyrl|arab)\b/i.test(tag)) return null; // only Latin-script Uzbek is written
  return languages.some((language) => language.code === code) ? code : null;
}

async function fetchJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function apply(loaded) {
  catalogue = loaded;
  plurals = new Intl.PluralRules(loaded.locale);
  numbers = new Intl.NumberFormat(loaded.locale);
  const root = document.documentElement;
  root.lang = loaded.code;
  root.dir = loaded.direction ?? "ltr";
}

/** The language to start in: remembered, else negotiated by the server, else the browser's, else English. */
function startingLanguage() {
  const choice = remembered();
  if (choice && ourCode(choice)) return ourCode(choice);
  const negotiated = document.querySelector('meta[name="foursquare-language"]')?.content;
  if (negotiated && ourCode(negotiated)) return ourCode(negotiated);
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag && ourCode(tag);
    if (code) return code;
  }
  return FALLBACK;
}

/** Load the menu's languages and the catalogue of the starting language (before the first render). */
export async function setupLanguage() {
  languages = (await fetchJson("/api/languages").catch(() => ({ languages: [] }))).languages;
  const code = startingLanguage();
  try {
    apply(await fetchJson(`/api/messages/${encodeURIComponent(code)}`));
  } catch (error) {
    if (code === FALLBACK) throw error;
    apply(await fetchJson(`/api/messages/${FALLBACK}`));
  }
  // Another tab of this browser chose a language: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_LANGUAGE && event.key !== null) return;
    const chosen = ourCode(remembered() ?? "") ?? startingLanguage();
    if (chosen !== catalogue.code) showLanguage(chosen);
  });
}

/** Show the page in the language `code` (loading its catalogue) and re-render every view. */
async function showLanguage(code) {
  const loaded = await fetchJson(`/api/messages/${encodeURIComponent(code)}`);
  apply(loaded);
  for (const listener of listeners) listener();
}

/** The player chose the language `code` in the menu: show it, and remember it in this browser. */
export async function chooseLanguage(code) {
  const found = ourCode(code);
  if (!found) return;
  remembered(found);
  if (found !== catalogue.code) await showLanguage(found);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    // A number is written the language's way; identifiers (deal numbers, cell names) are passed as strings.
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/** The message `key` with `params` substituted; plural messages pick their form from params.count. */
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

/** Whether the catalogue has a message `key`. */
export function hasMessage(key) {
  return key in catalogue.messages;
}

/** Fill every element with data-i18n="key" (text) or data-i18n-label="key" (aria-label). */
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

// --- cards -------------------------------------------------------------------------------------

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** Parse a short card name such as "7H" or "10S" into {rank, suit}. */
export function parseCard(name) {
  const suit = name.slice(-1);
  const rankText = name.slice(0, -1);
  const rank = rankText === "A" ? 1 : Number(rankText);
  return { rank, suit, name };
}

/** The short rank shown in a card corner: "A", "2" … "10". */
export function rankShort(rank) {
  const key = `rank.short.${rank}`;
  return hasMessage(key) ? t(key) : String(rank);
}

/** "7♥" */
export function cardSymbol(name) {
  const { rank, suit } = parseCard(name);
  return `${rankShort(rank)}${SUIT_SYMBOLS[suit]}`;
}

/** "7 of hearts" */
export function cardName(name) {
  const { rank, suit } = parseCard(name);
  const key = `rank.${rank}`;
  const rankWord = hasMessage(key) ? t(key) : String(rank);
  return t("card.name", { rank: rankWord, suit: t(`suit.${suit}`) });
}

/** The accessible label of a top card: "7 of hearts, face up" / "face-down card (7 of hearts)". */
export function cardLabel(name, faceUp) {
  return t(faceUp ? "card.faceUp" : "card.faceDown", { card: cardName(name) });
}

/** "A, B and C" using the catalogue's separators. */
export function joinList(items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  const head = items.slice(0, -1).join(t("list.sep"));
  return t("list.and", { a: head, b: items[items.length - 1] });
}

export function percent(fraction, digits = 0) {
  return new Intl.NumberFormat(intlLocale(), { style: "percent", maximumFractionDigits: digits }).format(fraction);
}

export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}

export function integer(value) {
  return numbers.format(value);
}

export function dateTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // A 24-hour clock, as the terminal's: CLDR's Kannada and Bengali 12-hour clocks write AM/PM in Latin letters.
  const format = { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" };
  return new Intl.DateTimeFormat(intlLocale(), format).format(date);
}

/** The house rules of a game as short tags: ["Standard rules"] or e.g. ["Diagonal adjacency", …]. */
export function variantText(variant) {
  const tags = [];
  tags.push(t(variant.adjacency === "diagonal" ? "variant.diagonal" : "variant.orthogonal"));
  if (variant.count_buried) tags.push(t("variant.countBuried"));
  if (variant.adjacency !== "diagonal" && !variant.count_buried) return [t("variant.standard")];
  return tags;
}
