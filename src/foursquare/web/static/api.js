// @ts-check
// The JSON API of the server (see docs/api.md). Every call returns parsed JSON or throws ApiError.
// It also knows whether the server can be reached: when a request cannot get through, it tells the
// listeners (connection.js shows a banner) and asks the server again now and then until it answers.

// --- the server's answers (docs/api.md) ------------------------------------------------------------------

/**
 * A deal number: a JS number, or a string of digits beyond the integers a number holds exactly.
 * @typedef {number | string} Deal
 * @typedef {{adjacency: "orthogonal" | "diagonal", count_buried: boolean}} Variant
 * @typedef {{row: number, col: number, cell: string, height: number, card: string, face_up: boolean}} Cell
 * @typedef {{min_row: number, max_row: number, min_col: number, max_col: number, column_names: string[],
 *   row_names: string[]}} Area
 * @typedef {"playing" | "won" | "lost"} Outcome
 * @typedef {{row: number, col: number, cell: string, card: string}} Placed
 * @typedef {{row: number, col: number, cell: string, card: string, face_up: boolean, line: "row" | "column",
 *   reason?: "highest" | "lowest" | "none_face_up" | null}} Flip
 */

/**
 * The state object: a game as the server shows it.
 * @typedef {object} GameState
 * @property {string} id
 * @property {Deal | null} deal null while a deal's number is hidden
 * @property {Variant} variant
 * @property {number} turn
 * @property {string | null} card the card to place; null once the game is over
 * @property {number} stock_left
 * @property {number} face_down
 * @property {number} max_face_down
 * @property {Cell[]} cells
 * @property {[number, number][]} legal
 * @property {string[]} legal_cells
 * @property {Area} area
 * @property {Outcome} outcome
 * @property {string | null} reason
 * @property {number | null} score
 * @property {boolean} can_undo
 * @property {boolean} can_redo
 * @property {string} created_at
 * @property {string} updated_at
 * @property {boolean} yours
 * @property {string | null} daily the UTC date of a daily deal
 * @property {boolean} winnable
 * @property {boolean} assisted
 * @property {boolean} daily_late a daily game played on after its date ended: it no longer counts for that date
 * @property {boolean} [offline] a game played without the server, its stock on the device (offline.js)
 */

/**
 * @typedef {GameState & {placed: Placed, flips?: Flip[]}} MoveAnswer the state after a move, and what it did
 * @typedef {{row: number, col: number, cell: string, win_probability: number, expected_score: number,
 *   playouts: number}} HintMove
 * @typedef {{turn: number, moves?: HintMove[]}} HintAnswer
 */

/**
 * A position of a finished game's replay.
 * @typedef {object} ReplayPosition
 * @property {number} turn
 * @property {Cell[]} cells
 * @property {string | null} card
 * @property {Placed | null} placed
 * @property {Flip[]} [flips]
 * @property {number} face_down
 * @property {Outcome} outcome
 */

/**
 * One move of the analysis, against the best one in its position.
 * @typedef {object} AnalysisMove
 * @property {number} index counts from 0
 * @property {string} card
 * @property {[number, number]} played
 * @property {string} played_cell
 * @property {[number, number]} best
 * @property {string} best_cell
 * @property {number} played_win_probability
 * @property {number} played_expected_score
 * @property {number} win_probability_loss
 * @property {number} expected_score_loss
 * @property {number} expected_score_loss_low
 * @property {boolean} mistake
 * @property {"exact" | "playouts"} [evaluation] how the move was judged (absent from an analysis of version 2)
 */

/**
 * @typedef {{winnable?: boolean | null, best_score?: number | null, upper_bound?: number | null}} Perfect
 * @typedef {{moves?: AnalysisMove[], costliest?: number[], perfect?: Perfect}} Analysis
 */

/**
 * @typedef {{id: string, deal: Deal | null, variant: Variant, turn: number, outcome: Outcome,
 *   score: number | null, created_at: string, daily: string | null, assisted: boolean, offline?: boolean}} GameSummary
 * @typedef {{games?: GameSummary[], page?: number, per_page?: number, total?: number}} GamesPage
 * @typedef {{current_streak: number, best_streak: number}} Streaks
 * @typedef {Streaks & {won: number, best_score: number | null}} CleanStats
 * @typedef {object} Stats
 * @property {number} played
 * @property {number} won
 * @property {number} lost
 * @property {number | null} [win_rate]
 * @property {number} current_streak
 * @property {number} best_streak
 * @property {number | null} best_score
 * @property {number | null} mean_score
 * @property {{score: number, count: number}[]} [score_histogram]
 * @property {CleanStats} [clean] absent from a server that does not count clean games
 * @property {Streaks} [daily] absent from a server that does not count daily deals
 */

/**
 * The results of a date's daily deal: everyone's daily game of that UTC date that is over; `scores` maps each
 * score (a loss scoring 0), written as a key, to how many of those games had it.
 * @typedef {{date: string, players: number, won: number, scores: Record<string, number>}} DailyResults
 */

/**
 * This browser's account (docs/api.md, "Accounts and passkeys").
 * @typedef {{id: string, name: string | null, transports: string[], created_at: string, last_used_at: string | null}} PasskeyInfo
 * @typedef {{signed_in: boolean, created_at: string | null, passkeys: PasskeyInfo[]}} AccountState
 * @typedef {{handle: string, created_at: string, last_seen_at: string, browser: string | null, system: string | null,
 *   current: boolean}} SessionInfo
 * @typedef {{sessions: SessionInfo[], ended: number}} SessionList
 * @typedef {{deleted: {games: number, passkeys: number, sessions: number}, account: AccountState}} AccountDeleted
 * The options of navigator.credentials.create() and .get(), as the server writes them (bytes in base64url):
 * @typedef {{id: string, type: "public-key", transports?: string[]}} CredentialDescriptorJSON
 * @typedef {{rp: {name: string, id: string}, user: {id: string, name: string, displayName: string},
 *   challenge: string, pubKeyCredParams: {type: "public-key", alg: number}[], timeout: number,
 *   excludeCredentials: CredentialDescriptorJSON[],
 *   authenticatorSelection: {residentKey: "required", requireResidentKey: boolean, userVerification: "preferred"},
 *   attestation: "none"}} RegistrationOptionsJSON
 * @typedef {{challenge: string, timeout: number, rpId: string, allowCredentials: CredentialDescriptorJSON[],
 *   userVerification: "preferred"}} AuthenticationOptionsJSON
 */

/**
 * What a new game is asked for (at most one of deal, daily, winnable and like).
 * @typedef {object} NewGameOptions
 * @property {string | number | null} [deal] a string of digits, or a number
 * @property {Variant | null} [variant]
 * @property {boolean} [daily]
 * @property {boolean} [winnable]
 * @property {string | null} [like] the id of a game whose deal to play
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
  move: (id, row, col, turn, card) => request("POST", `${game(id)}/moves`, { row, col, turn, card }),
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
  /** @type {(id: string) => Promise<unknown>} the game record (docs/records.md) */
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
  deleteAccount: () => request("POST", "/api/account/delete", { confirm: true }),
  /** @type {(id: string, name: string) => Promise<AccountState>} name a passkey ("": none) */
  renamePasskey: (id, name) => request("PATCH", `/api/account/credentials/${encodeURIComponent(id)}`, { name }),
  /** @type {(id: string, last: boolean) => Promise<AccountState>} last: the account's last passkey, confirmed */
  removePasskey: (id, last) =>
    request("DELETE", `/api/account/credentials/${encodeURIComponent(id)}${last ? "?confirm=true" : ""}`),
  /** @type {() => Promise<SessionList>} */
  sessions: () => request("GET", "/api/account/sessions"),
  /** @type {(handle: string) => Promise<SessionList>} */
  endSession: (handle) => request("DELETE", `/api/account/sessions/${encodeURIComponent(handle)}`),
  /** @type {() => Promise<SessionList>} */
  signOutEverywhere: () => request("POST", "/api/account/sign-out-everywhere"),
};

/** Where a browser downloads every game of its player as a JSON file (docs/api.md). */
export const EXPORT_PATH = "/api/account/export";
