// @ts-check
// The JSON API of the server (see docs/api.md). Every call returns parsed JSON or throws ApiError.
// It also knows whether the server can be reached: when a request cannot get through, it tells the
// listeners (connection.js shows a banner) and asks the server again now and then until it answers.

// --- the server's answers -----------------------------------------------------------------------------------
// Their types are the server's models: api-types.d.ts is generated from its /openapi.json (tools/api_types.py,
// make api-types), so tsc checks the page against what the server really sends. Each field is described there.

/**
 * @typedef {import("./api-types").components["schemas"]} Schemas
 * A deal number: a JS number, or a string of digits beyond the integers a number holds exactly (keepBigDeal).
 * @typedef {number | string} Deal
 */

/**
 * A schema as the page parses it: every `deal`, at any depth, may be a string of digits (keepBigDeal).
 * @template T
 * @typedef {{[K in keyof T]: K extends "deal" ? T[K] | string : T[K] extends object ? Parsed<T[K]> : T[K]}} Parsed
 */

/**
 * @typedef {Schemas["Rules"]} Variant
 * @typedef {Schemas["Cell"]} Cell
 * @typedef {Schemas["Area"]} Area
 * @typedef {Schemas["GameState"]["outcome"]} Outcome
 * @typedef {Schemas["Placed"]} Placed
 * @typedef {Schemas["Flip"]} Flip
 * @typedef {Parsed<Schemas["GameState"]>} GameState
 * @typedef {Parsed<Schemas["MoveResult"]>} MoveAnswer the state after a move, and what it did
 * @typedef {Schemas["MoveAdvice"]} HintMove
 * @typedef {Schemas["Hint"]} HintAnswer
 * @typedef {Schemas["ReplayPosition"]} ReplayPosition
 * @typedef {Schemas["JudgedMove"]} AnalysisMove
 * @typedef {Schemas["Perfect"]} Perfect
 * @typedef {Parsed<Schemas["Analysis"]>} Analysis
 * @typedef {Parsed<Schemas["GameSummary"]>} GameSummary
 * @typedef {Parsed<Schemas["GameList"]>} GamesPage
 * @typedef {Schemas["Stats"]} Stats
 * @typedef {Schemas["DailyResults"]} DailyResults
 * @typedef {Schemas["PasskeyInfo"]} PasskeyInfo
 * @typedef {Schemas["AccountState"]} AccountState
 * @typedef {Schemas["SessionInfo"]} SessionInfo
 * @typedef {Schemas["SessionList"]} SessionList
 * @typedef {Schemas["AccountDeleted"]} AccountDeleted
 * The options of navigator.credentials.create() and .get(), as the server writes them (bytes in base64url):
 * @typedef {Schemas["CredentialDescriptor"]} CredentialDescriptorJSON
 * @typedef {Schemas["RegistrationOptions"]} RegistrationOptionsJSON
 * @typedef {Schemas["AuthenticationOptions"]} AuthenticationOptionsJSON
 * What a new game is asked for (at most one of deal, daily, winnable and like), the deal a string of digits or a
 * number:
 * @typedef {Partial<Parsed<Schemas["NewGameBody"]>>} NewGameOptions
 * The catalogues (i18n.js) and the lesson (learn.js), which those modules fetch themselves:
 * @typedef {Schemas["Catalogue"]} Catalogue
 * @typedef {Schemas["LanguageName"]} Language
 * @typedef {Schemas["Languages"]} Languages
 * @typedef {Schemas["Lesson"]} Lesson
 * @typedef {Schemas["LessonStep"]} LessonStep
 */

export class ApiError extends Error {
  /**
   * status: the HTTP status (0 when the server could not be reached); code: the error's stable code
   * and reason: an illegal move's (see docs/api.md, "Errors"); detail: the server's words, for logs.
   * @param {number} status
   * @param {{detail?: string, code?: string, reason?: string}} [fields]
   */
  constructor(status, { detail = "", code = "", reason = "" } = {}) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.reason = reason;
  }
}

// Deal numbers go up to 2^64 - 1, beyond the integers a JS number holds exactly: keep those as
// strings of digits (read from the JSON source text) so that "Deal #…" shows the true number.
/**
 * A reviver of JSON.parse; `context` is given by browsers that pass a number's source text.
 * @param {string} key
 * @param {unknown} value
 * @param {{source?: string}} [context]
 */
function keepBigDeal(key, value, context) {
  if (key === "deal" && typeof value === "number" && !Number.isSafeInteger(value) && context?.source) {
    return context.source;
  }
  return value;
}

/**
 * A JSON text for a new-game body; the deal (digits) is written as-is so no precision is lost.
 * @param {NewGameOptions} [options]
 */
function newGameBody({ deal = null, variant = null, daily = false, winnable = false, like = null } = {}) {
  const parts = [];
  if (deal !== null && deal !== undefined) {
    const digits = String(deal);
    if (!/^[0-9]+$/.test(digits)) throw new ApiError(422, { code: "bad_request" });
    parts.push(`"deal": ${digits}`);
  }
  if (variant) parts.push(`"variant": ${JSON.stringify(variant)}`);
  if (daily) parts.push('"daily": true');
  if (winnable) parts.push('"winnable": true');
  if (like) parts.push(`"like": ${JSON.stringify(like)}`);
  return `{${parts.join(", ")}}`;
}

/**
 * The JSON text of POST /api/offline-games, the deal (digits) written as a number.
 * @param {string} id
 * @param {{deal: string, variant: Variant, moves: [number, number][]}} record
 */
function offlineGameBody(id, { deal, variant, moves }) {
  if (!/^[0-9]+$/.test(deal)) throw new ApiError(422, { code: "bad_record" });
  const rest = `"variant": ${JSON.stringify(variant)}, "moves": ${JSON.stringify(moves)}`;
  return `{"id": ${JSON.stringify(id)}, "record": {"format": "foursquare-game", "version": 1, "deal": ${deal}, ${rest}}}`;
}

// --- reachability ---------------------------------------------------------------------------------------

const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 10000;
// A cheap request that the service worker never answers from its cache (it leaves /api/ alone).
const PROBE_PATH = "/api/games?page=1&per_page=1";
// What a reverse proxy answers while the server behind it is down (the server's own errors carry a code).
const GATEWAY_ERRORS = [502, 503, 504];

/** @type {Set<(reachable: boolean) => void>} */
const reachabilityListeners = new Set();
let reachable = true;
let retryDelay = RETRY_FIRST_MS;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;

/**
 * Call `listener(reachable)` each time the server stops or starts answering.
 * @param {(reachable: boolean) => void} listener
 */
export function onReachability(listener) {
  reachabilityListeners.add(listener);
}

/** Whether the server answered the last request (any HTTP answer counts, even an error). */
export const serverReachable = () => reachable;

/** @param {boolean} value */
function setReachable(value) {
  clearTimeout(retryTimer);
  if (value !== reachable) {
    reachable = value;
    retryDelay = RETRY_FIRST_MS;
    for (const listener of reachabilityListeners) listener(value);
  }
  if (!value) retryTimer = setTimeout(probe, retryDelay);
}

/** Ask the server again; each failure waits longer before the next try (up to RETRY_MAX_MS). */
async function probe() {
  if (reachable) return;
  try {
    const response = await fetch(PROBE_PATH, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    });
    if (GATEWAY_ERRORS.includes(response.status)) throw new Error(`HTTP ${response.status}`);
    setReachable(true);
  } catch {
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    setReachable(false);
  }
}

/**
 * Wait until the server answers, after a request made elsewhere got no answer (the catalogues, i18n.js, which
 * the page needs before it can say anything): the server is asked again now and then, as after a request of
 * this module that gets none, and the listeners are told.
 * @returns {Promise<void>}
 */
export function waitForServer() {
  return new Promise((resolve) => {
    /** @param {boolean} value */
    const listener = (value) => {
      if (!value) return;
      reachabilityListeners.delete(listener);
      resolve();
    };
    reachabilityListeners.add(listener);
    setReachable(false);
  });
}

// The browser says the network is back: try at once rather than at the next retry.
window.addEventListener("online", () => {
  if (!reachable) probe();
});

// --- requests -----------------------------------------------------------------------------------------

// Any GET of the API gives a browser without the player's cookie a new one (docs/api.md, "The player cookie").
const IDENTITY_PATH = "/api/stats";

/**
 * The parsed answer of a request (the JSON shape docs/api.md gives for it); `body`: a JSON text or a value.
 * A request refused for want of the player's cookie (403 no_player: cookies cleared, or a page opened from
 * the service worker's copy, which asked the server nothing) is made again, once, after a GET that gives one.
 * @template T
 * @param {"GET" | "POST" | "PATCH" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
async function request(method, path, body) {
  try {
    return await send(method, path, body);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403 && error.code === "no_player")) throw error;
    await send("GET", IDENTITY_PATH);
    return send(method, path, body);
  }
}

/**
 * One request, as `request` describes it.
 * @template T
 * @param {"GET" | "POST" | "PATCH" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
async function send(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const options = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  let text;
  try {
    response = await fetch(path, options);
    text = await response.text();
  } catch {
    setReachable(false);
    throw new ApiError(0);
  }
  /** @type {unknown} */
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text, keepBigDeal);
    } catch {
      data = null;
    }
  }
  const fields = /** @type {Record<string, unknown> | null} */ (data);
  const field = (/** @type {string} */ name) => {
    const value = fields?.[name];
    return typeof value === "string" ? value : "";
  };
  if (GATEWAY_ERRORS.includes(response.status) && !field("code")) {
    setReachable(false); // a proxy's answer, not the server's
    throw new ApiError(0);
  }
  setReachable(true);
  if (!response.ok) {
    throw new ApiError(response.status, { detail: field("detail"), code: field("code"), reason: field("reason") });
  }
  return /** @type {T} */ (data); // the JSON shape docs/api.md gives for this path
}

const game = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}`;
const passkey = (/** @type {string} */ id) => `/api/account/credentials/${encodeURIComponent(id)}`;

/** @typedef {(id: string) => Promise<GameState>} GameChange */

export const api = {
  /**
   * A game played on this device, sent to the server (docs/api.md, "Games played offline"): its id there and its
   * record (docs/records.md), the deal a string of digits written as a JSON number, so no precision is lost.
   * @type {(id: string, record: {deal: string, variant: Variant, moves: [number, number][]}) => Promise<GameState>}
   */
  sendOfflineGame: (id, record) => request("POST", "/api/offline-games", offlineGameBody(id, record)),
  /** @type {(options?: NewGameOptions) => Promise<GameState>} */
  newGame: (options = {}) => request("POST", "/api/games", newGameBody(options)),
  /** @type {(id: string) => Promise<GameState>} */
  getGame: (id) => request("GET", game(id)),
  /** @type {(page?: number, perPage?: number) => Promise<GamesPage>} */
  listGames: (page = 1, perPage = 20) => request("GET", `/api/games?page=${page}&per_page=${perPage}`),
  /**
   * card: the card to place as the player saw it (the server refuses the move if it has another one)
   * @type {(id: string, row: number, col: number, turn: number, card: string) => Promise<MoveAnswer>}
   */
  move: (id, row, col, turn, card) =>
    request("POST", `${game(id)}/moves`, /** @satisfies {Schemas["MoveBody"]} */ ({ row, col, turn, card })),
  /** @type {GameChange} */
  undo: (id) => request("POST", `${game(id)}/undo`),
  /** @type {GameChange} */
  redo: (id) => request("POST", `${game(id)}/redo`),
  /** @type {GameChange} */
  restart: (id) => request("POST", `${game(id)}/restart`),
  /** @type {(id: string) => Promise<HintAnswer>} */
  hint: (id) => request("GET", `${game(id)}/hint`),
  /** @type {(id: string) => Promise<Analysis>} */
  analysis: (id) => request("GET", `${game(id)}/analysis`),
  /** @type {(id: string) => Promise<Parsed<Schemas["GameRecord"]>>} the game record (docs/records.md) */
  record: (id) => request("GET", `${game(id)}/record`),
  /** @type {(id: string, turn: number) => Promise<ReplayPosition>} */
  replay: (id, turn) => request("GET", `${game(id)}/replay?turn=${turn}`),
  /** @type {() => Promise<Stats>} */
  stats: () => request("GET", "/api/stats"),
  /**
   * The results of the daily deal of `day` (YYYY-MM-DD): a past date's, or today's once the player's own daily
   * game of today is over (409 daily_secret before).
   * @type {(day: string) => Promise<DailyResults>}
   */
  dailyResults: (day) => request("GET", `/api/daily/${encodeURIComponent(day)}/results`),
  /** @type {() => Promise<AccountState>} */
  account: () => request("GET", "/api/account"),
  /** @type {() => Promise<RegistrationOptionsJSON>} */
  registrationOptions: () => request("POST", "/api/account/passkeys/options"),
  /** @type {(credential: object) => Promise<AccountState>} the new credential (PublicKeyCredential's JSON) */
  register: (credential) => request("POST", "/api/account/passkeys", credential),
  /** @type {() => Promise<AuthenticationOptionsJSON>} */
  signInOptions: () => request("POST", "/api/account/sign-in/options"),
  /** @type {(credential: object) => Promise<AccountState>} the passkey's signature (PublicKeyCredential's JSON) */
  signIn: (credential) => request("POST", "/api/account/sign-in", credential),
  /** @type {() => Promise<AccountState>} */
  signOut: () => request("POST", "/api/account/sign-out"),
  /** @type {() => Promise<AccountDeleted>} */
  deleteAccount: () =>
    request("POST", "/api/account/delete", /** @satisfies {Schemas["DeleteBody"]} */ ({ confirm: true })),
  /** @type {(id: string, name: string) => Promise<AccountState>} name a passkey ("": none) */
  renamePasskey: (id, name) =>
    request("PATCH", passkey(id), /** @satisfies {Schemas["RenameBody"]} */ ({ name })),
  /** @type {(id: string, last: boolean) => Promise<AccountState>} last: the account's last passkey, confirmed */
  removePasskey: (id, last) =>
    request("DELETE", `${passkey(id)}${last ? "?confirm=true" : ""}`),
  /** @type {() => Promise<SessionList>} */
  sessions: () => request("GET", "/api/account/sessions"),
  /** @type {(handle: string) => Promise<SessionList>} */
  endSession: (handle) => request("DELETE", `/api/account/sessions/${encodeURIComponent(handle)}`),
  /** @type {() => Promise<SessionList>} */
  signOutEverywhere: () => request("POST", "/api/account/sign-out-everywhere"),
};

/** Where a browser downloads every game of its player as a JSON file (docs/api.md). */
export const EXPORT_PATH = "/api/account/export";
