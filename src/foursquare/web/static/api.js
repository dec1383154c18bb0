// The JSON API of the server (see docs/api.md). Every call returns parsed JSON or throws ApiError.
// It also knows whether the server can be reached: when a request cannot get through, it tells the
// listeners (connection.js shows a banner) and asks the server again now and then until it answers.

export class ApiError extends Error {
  /**
   * status: the HTTP status (0 when the server could not be reached); code: the error's stable code
   * and reason: an illegal move's (see docs/api.md, "Errors"); detail: the server's words, for logs.
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
function keepBigDeal(key, value, context) {
  if (key === "deal" && typeof value === "number" && !Number.isSafeInteger(value) && context?.source) {
    return context.source;
  }
  return value;
}

/** A JSON text for a new-game body; the deal (digits) is written as-is so no precision is lost. */
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

// --- reachability ---------------------------------------------------------------------------------------

const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 10000;
// A cheap request that the service worker never answers from its cache (it leaves /api/ alone).
const PROBE_PATH = "/api/games?page=1&per_page=1";

const reachabilityListeners = new Set();
let reachable = true;
let retryDelay = RETRY_FIRST_MS;
let retryTimer = null;

/** Call `listener(reachable)` each time the server stops or starts answering. */
export function onReachability(listener) {
  reachabilityListeners.add(listener);
}

/** Whether the server answered the last request (any HTTP answer counts, even an error). */
export const serverReachable = () => reachable;

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
    await fetch(PROBE_PATH, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
    setReachable(true);
  } catch {
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    setReachable(false);
  }
}

// The browser says the network is back: try at once rather than at the next retry.
window.addEventListener("online", () => {
  if (!reachable) probe();
});

// --- requests -----------------------------------------------------------------------------------------

async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    setReachable(false);
    throw new ApiError(0);
  }
  setReachable(true);
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text, keepBigDeal);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const text = (name) => (data && typeof data[name] === "string" ? data[name] : "");
    throw new ApiError(response.status, { detail: text("detail"), code: text("code"), reason: text("reason") });
  }
  return data;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  /** options: {deal?: string of digits | number, variant?: {adjacency, count_buried}, daily?, winnable?, like?: game id} */
  newGame: (options = {}) => request("POST", "/api/games", newGameBody(options)),
  getGame: (id) => request("GET", game(id)),
  listGames: (page = 1, perPage = 20) => request("GET", `/api/games?page=${page}&per_page=${perPage}`),
  /** card: the card to place as the player saw it (the server refuses the move if it has another one) */
  move: (id, row, col, turn, card) => request("POST", `${game(id)}/moves`, { row, col, turn, card }),
  undo: (id) => request("POST", `${game(id)}/undo`),
  redo: (id) => request("POST", `${game(id)}/redo`),
  restart: (id) => request("POST", `${game(id)}/restart`),
  hint: (id) => request("GET", `${game(id)}/hint`),
  analysis: (id) => request("GET", `${game(id)}/analysis`),
  record: (id) => request("GET", `${game(id)}/record`),
  replay: (id, turn) => request("GET", `${game(id)}/replay?turn=${turn}`),
  stats: () => request("GET", "/api/stats"),
};
