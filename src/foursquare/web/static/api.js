// The JSON API of the server (see docs/api.md). Every call returns parsed JSON or throws ApiError.

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
    throw new ApiError(0);
  }
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
