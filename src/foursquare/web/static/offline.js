// @ts-check
// Games played on this device, without the server: when the server cannot be reached, a new game (a random deal
// drawn here, or a numbered one) is dealt and played by the page's own copy of the rules (engine.js), and kept in
// this browser's IndexedDB, so that it survives a reload, a closed tab and a restarted browser. Such a game's
// stock is on the device (it is why it never counts as a clean game nor as a daily deal); a game of the server
// keeps its stock there: nothing here ever asks the server for one.
//
// This module answers as the server does (api.js): the same calls for a game of this device (newGame, getGame,
// move, undo, redo, restart, replay, hint: the best player's rollout policy ported to policy.js), the same state objects (docs/api.md, "The state object", with
// "offline": true) and the same refusals (ApiError with the server's codes), so the page draws a game of this
// device exactly as one of the server.
//
// What IndexedDB keeps (database "foursquare", object store "games", key "id"), one object a game (DeviceGame):
// its record in the format of docs/records.md (version 1: the deal, the house rules, the moves in the order
// the cards were laid; the deal written as a string of digits, since a JS number loses those above 2⁵³: send it
// as a JSON number), the undone moves that redo would play again, and what the game list and the statistics
// read without replaying it. Each change reads the game, replays its record through the rules, and writes it
// back in one transaction: two tabs of one game never overwrite each other's moves (the second is told it is
// stale, as by the server).

import { ApiError } from "./api.js";
import { Game, randomDealNumber } from "./engine.js";
import { hint as rankMoves } from "./policy.js";

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {import("./api.js").MoveAnswer} MoveAnswer
 * @typedef {import("./api.js").ReplayPosition} ReplayPosition
 * @typedef {import("./api.js").GameSummary} GameSummary
 * @typedef {import("./api.js").Stats} Stats
 * @typedef {import("./api.js").Variant} Variant
 * @typedef {import("./api.js").Outcome} Outcome
 */

/**
 * A game's record as docs/records.md writes it (version 1), but for its deal: a string of digits here.
 * @typedef {{format: "foursquare-game", version: 1, deal: string, variant: Variant, moves: [number, number][]}} DeviceRecord
 */

/**
 * A game of this device as IndexedDB keeps it.
 * @typedef {object} DeviceGame
 * @property {string} id "device-" and 22 characters of base64url: the page's address is #/game/{id}
 * @property {1} schema the version of this object's shape
 * @property {DeviceRecord} record the deal, the house rules and the moves played, first first
 * @property {[number, number][]} redo the moves undone that redo would play again, the next first
 * @property {boolean} random whether the deal was drawn at random here (else the player asked for its number)
 * @property {number} turn cards placed
 * @property {Outcome} outcome
 * @property {GameState["reason"]} reason the outcome's reason, as the state object's
 * @property {number | null} score
 * @property {string} created_at ISO 8601, UTC
 * @property {string} updated_at ISO 8601, UTC
 * @property {string | null} finished_at when the game ended (the statistics count games in that order)
 * @property {string | null} [sent] the moves the server holds (their JSON), once it stored the game (sync.js)
 * @property {string | null} [refused] the code of the server's refusal of the game (sync.js): no more sent
 */

const DB_NAME = "foursquare";
const STORE = "games";
const PREFIX = "device-";
const ID_PATTERN = /^device-[A-Za-z0-9_-]{22}$/;

/**
 * Whether `id` names a game of this device (a server's game id is 22 characters without that prefix).
 * @param {string | null | undefined} id
 */
export const isDeviceGame = (id) => typeof id === "string" && ID_PATTERN.test(id);

/** A new game's id: 16 random bytes, in base64url. */
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const text = btoa(String.fromCharCode(...bytes));
  return PREFIX + text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// --- refusals, in the server's codes (the page words them from the catalogue) -----------------------------

const conflict = (/** @type {string} */ code) => new ApiError(409, { code });
const unknownGame = () => new ApiError(404, { code: "unknown_game" });
/** IndexedDB is missing, disabled (a private window of some browsers) or full. */
const noStorage = () => new ApiError(507, { code: "device_storage" });

// --- IndexedDB --------------------------------------------------------------------------------------------

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

/**
 * Open the database at `version` (its current one if undefined), its store made if it has none.
 * @param {number} [version]
 * @returns {Promise<IDBDatabase>}
 */
function open(version) {
  return new Promise((resolve, reject) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = indexedDB.open(DB_NAME, version);
    } catch {
      reject(noStorage());
      return;
    }
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "id" });
    };
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORE)) {
        // A database of this name without the store (made by something else): upgrade it to make the store.
        const next = db.version + 1;
        db.close();
        open(next).then(resolve, reject);
        return;
      }
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(noStorage());
  });
}

/** The database, opened once (and again after another tab upgraded it). */
function database() {
  if (opening) return opening;
  opening = open();
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

/**
 * Run `work` in one transaction of the store; resolves with what it gave `done` once the transaction is
 * committed (so what the page shows next is on the disk), rejects with what it gave `fail` (nothing written).
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore, done: (value: T) => void, fail: (error: unknown) => void) => void} work
 * @returns {Promise<T>}
 */
async function transact(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    /** @type {IDBTransaction} */
    let tx;
    try {
      tx = db.transaction(STORE, mode);
    } catch {
      opening = null; // closed meanwhile (another tab upgraded it): open it again next time
      reject(noStorage());
      return;
    }
    /** @type {{value: T} | null} */
    let result = null;
    /** @type {unknown} */
    let failure = null;
    const fail = (/** @type {unknown} */ error) => {
      failure = error;
      tx.abort();
    };
    try {
      work(tx.objectStore(STORE), (value) => (result = { value }), fail);
    } catch (error) {
      fail(error);
    }
    tx.oncomplete = () => (result ? resolve(result.value) : reject(noStorage()));
    tx.onabort = () => reject(failure ?? noStorage());
  });
}

/**
 * The game `id` as kept, or throws unknown_game.
 * @param {string} id
 * @returns {Promise<DeviceGame>}
 */
function read(id) {
  return transact("readonly", (store, done, fail) => {
    const request = store.get(id);
    request.onsuccess = () => (request.result ? done(/** @type {DeviceGame} */ (request.result)) : fail(unknownGame()));
  });
}

/**
 * Change the game `id` in one transaction: `change(game, saved)` acts on its rules replayed (or throws a
 * refusal), and what it returns is answered once the game is written back.
 * @template T
 * @param {string} id
 * @param {(game: Game, saved: DeviceGame) => T} change
 * @returns {Promise<T>}
 */
async function update(id, change) {
  const answer = await transact("readwrite", (store, done, fail) => {
    const request = store.get(id);
    request.onsuccess = () => {
      /** @type {DeviceGame | undefined} */
      const saved = request.result;
      if (!saved) return fail(unknownGame());
      try {
        const game = rebuild(saved);
        const answer = change(game, saved);
        store.put(kept(saved, game));
        done(answer);
      } catch (error) {
        fail(error);
      }
    };
  });
  changed();
  return /** @type {T} */ (answer);
}

/**
 * Write `fields` over what is kept of the game `id` (nothing if it is gone).
 * @param {string} id
 * @param {Partial<DeviceGame>} fields
 * @returns {Promise<void>}
 */
function note(id, fields) {
  return transact("readwrite", (store, done) => {
    const request = store.get(id);
    request.onsuccess = () => {
      if (request.result) store.put({ ...request.result, ...fields });
      done(undefined);
    };
  });
}

/** @type {Set<() => void>} */
const changeListeners = new Set();

/**
 * Call `listener()` each time a game of this device changed (after it is kept).
 * @param {() => void} listener
 */
export function onDeviceChange(listener) {
  changeListeners.add(listener);
}

function changed() {
  for (const listener of changeListeners) listener();
}

/** @returns {Promise<DeviceGame[]>} every game of this device */
function readAll() {
  return transact("readonly", (store, done) => {
    const request = store.getAll();
    request.onsuccess = () => done(/** @type {DeviceGame[]} */ (request.result));
  });
}

// --- a game: its rules, its state ------------------------------------------------------------------------

/**
 * The rules of a kept game in its position, with its redo list.
 * @param {DeviceGame} saved
 */
function rebuild(saved) {
  const game = new Game({ deal: saved.record.deal, variant: saved.record.variant });
  for (const [row, col] of saved.record.moves) game.place(row, col);
  for (const [row, col] of saved.redo) game.place(row, col);
  for (let i = 0; i < saved.redo.length; i += 1) game.undo();
  return game;
}

/**
 * What is kept of `game`, the game `saved` after a change.
 * @param {DeviceGame} saved
 * @param {Game} game
 * @returns {DeviceGame}
 */
function kept(saved, game) {
  const now = new Date().toISOString();
  const outcome = game.outcome;
  return {
    ...saved,
    record: { ...saved.record, moves: game.moves.map(({ row, col }) => [row, col]) },
    redo: game.redoMoves.map(({ row, col }) => [row, col]),
    turn: game.turn,
    outcome: outcome.status,
    reason: outcome.reason,
    score: outcome.score,
    updated_at: now,
    finished_at: outcome.status === "playing" ? null : (saved.finished_at ?? now),
  };
}

/**
 * The deal number as the server's answers give it: a number, or a string of digits beyond 2⁵³ (see api.js).
 * @param {string} digits
 */
function dealValue(digits) {
  const number = Number(digits);
  return Number.isSafeInteger(number) ? number : digits;
}

/**
 * The state object of `game`, the game `saved` (docs/api.md), as the server would show it to its player.
 * @param {DeviceGame} saved
 * @param {Game} game
 * @returns {GameState}
 */
function stateOf(saved, game) {
  return {
    ...game.state(),
    id: saved.id,
    deal: dealValue(saved.record.deal),
    created_at: saved.created_at,
    updated_at: saved.updated_at,
    yours: true,
    daily: null,
    winnable: false,
    assisted: false,
    daily_late: false,
    offline: true,
  };
}

/**
 * Answer with the state of `game` after a change, as it is now kept.
 * @param {DeviceGame} saved
 * @param {Game} game
 */
const stateAfter = (saved, game) => stateOf(kept(saved, game), game);

// --- the calls, as api.js's --------------------------------------------------------------------------------

/**
 * A new game of this device: deal `deal` (digits), else a random deal drawn here; `variant` its house rules.
 * @param {{deal?: string | number | null, variant?: Variant | null}} options
 * @returns {Promise<GameState>}
 */
async function newGame({ deal = null, variant = null }) {
  const random = deal === null || deal === undefined;
  const game = new Game({ deal: random ? randomDealNumber() : String(deal), variant });
  const now = new Date().toISOString();
  /** @type {DeviceGame} */
  const saved = {
    id: newId(),
    schema: 1,
    record: { format: "foursquare-game", version: 1, deal: String(game.deal), variant: game.variant, moves: [] },
    redo: [],
    random,
    turn: 0,
    outcome: "playing",
    reason: null,
    score: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
  await transact("readwrite", (store, done) => {
    store.add(saved);
    done(null);
  });
  changed();
  return stateOf(saved, game);
}

/**
 * @param {string} id
 * @returns {Promise<GameState>}
 */
async function getGame(id) {
  if (!isDeviceGame(id)) throw unknownGame();
  const saved = await read(id);
  return stateOf(saved, rebuild(saved));
}

/**
 * Place the card to place at (row, col), as POST /api/games/{id}/moves: refused if the game moved on (turn) or
 * has another card to place than the one the player saw (card).
 * @param {string} id
 * @param {number} row
 * @param {number} col
 * @param {number} turn
 * @param {string} card
 * @returns {Promise<MoveAnswer>}
 */
function move(id, row, col, turn, card) {
  return update(id, (game, saved) => {
    if (game.isOver) throw conflict("game_over");
    if (turn !== game.turn) throw conflict("stale_turn");
    if (card !== game.cardToPlace) throw conflict("wrong_card");
    const illegal = game.illegality(row, col);
    if (illegal) throw new ApiError(422, { code: "illegal_move", reason: illegal.reason });
    const placement = game.place(row, col);
    return {
      ...stateAfter(saved, game),
      placed: { row, col, cell: placement.cell, card: placement.card },
      flips: placement.flips.map((flip) => ({ ...flip })),
    };
  });
}

/**
 * @param {string} id
 * @returns {Promise<GameState>}
 */
const undo = (id) =>
  update(id, (game, saved) => {
    if (game.isOver) throw conflict("game_over");
    if (!game.canUndo) throw conflict("nothing_to_undo");
    game.undo();
    return stateAfter(saved, game);
  });

/**
 * @param {string} id
 * @returns {Promise<GameState>}
 */
const redo = (id) =>
  update(id, (game, saved) => {
    if (game.isOver) throw conflict("game_over");
    if (!game.canRedo) throw conflict("nothing_to_redo");
    game.redo();
    return stateAfter(saved, game);
  });

/**
 * @param {string} id
 * @returns {Promise<GameState>}
 */
const restart = (id) =>
  update(id, (game, saved) => {
    if (game.isOver) throw conflict("game_over");
    game.restart();
    return stateAfter(saved, game);
  });

/**
 * The hint for the game `id`, as GET /api/games/{id}/hint: its legal moves ranked by policy.js, which sees what
 * the player sees (the piles, the card to place, the cards unseen) and, with the server's seed, answers as the
 * server does.
 * @param {string} id
 * @returns {Promise<import("./api.js").HintAnswer>}
 */
async function hint(id) {
  const saved = await read(id);
  const game = rebuild(saved);
  if (game.isOver) throw conflict("game_over");
  return rankMoves(game);
}

/**
 * The position of the finished game `id` after `turn` moves, as GET /api/games/{id}/replay.
 * @param {string} id
 * @param {number} turn
 * @returns {Promise<ReplayPosition>}
 */
async function replay(id, turn) {
  const saved = await read(id);
  if (saved.outcome === "playing") throw conflict("still_playing");
  const moves = saved.record.moves;
  if (!Number.isInteger(turn) || turn < 0 || turn > moves.length) throw new ApiError(422, { code: "bad_replay_turn" });
  const game = new Game({ deal: saved.record.deal, variant: saved.record.variant });
  let placement = null;
  for (const [row, col] of moves.slice(0, turn)) placement = game.place(row, col);
  const outcome = game.outcome;
  return {
    turn,
    cells: game.cells(),
    card: game.cardToPlace,
    placed: placement && { row: placement.row, col: placement.col, cell: placement.cell, card: placement.card },
    flips: placement ? placement.flips.map((flip) => ({ ...flip })) : [],
    face_down: game.faceDown,
    outcome: outcome.status,
    reason: outcome.reason,
    score: outcome.score,
  };
}

/**
 * The games of this device, newest first, as the lines of GET /api/games.
 * @returns {Promise<GameSummary[]>}
 */
async function listGames() {
  const games = await readAll();
  games.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return games.map((saved) => ({
    id: saved.id,
    deal: dealValue(saved.record.deal),
    variant: saved.record.variant,
    turn: saved.turn,
    outcome: saved.outcome,
    reason: saved.reason,
    score: saved.score,
    created_at: saved.created_at,
    updated_at: saved.updated_at,
    daily: null,
    assisted: false,
    offline: true,
  }));
}

const MAX_SCORE = 24; // a win needs 16 cards placed, leaving 24

/**
 * The statistics of this device's finished games, counted as GET /api/stats counts a player's (in the order
 * they ended, a loss scoring 0): none is clean, none is a daily deal.
 * @returns {Promise<Stats>}
 */
async function stats() {
  const finished = (await readAll())
    .filter((saved) => saved.outcome !== "playing")
    .sort((a, b) => ((a.finished_at ?? "") < (b.finished_at ?? "") ? -1 : 1));
  const played = finished.length;
  const won = finished.filter((saved) => saved.outcome === "won").length;
  let current = 0;
  let best = 0;
  const histogram = Array.from({ length: MAX_SCORE + 1 }, () => 0);
  const scores = finished.map((saved) => (saved.outcome === "won" ? (saved.score ?? 0) : 0));
  for (const saved of finished) {
    current = saved.outcome === "won" ? current + 1 : 0;
    best = Math.max(best, current);
    if (saved.outcome === "won") histogram[Math.min(Math.max(saved.score ?? 0, 0), MAX_SCORE)] += 1;
  }
  return {
    played,
    won,
    lost: played - won,
    win_rate: played ? won / played : 0,
    current_streak: current,
    best_streak: best,
    best_score: played ? Math.max(...scores) : null,
    mean_score: played ? scores.reduce((sum, score) => sum + score, 0) / played : null,
    best_time: null, // a game played offline is not timed: the server's clock never saw it played
    score_histogram: histogram.map((count, score) => ({ score, count })),
    assisted: played, // as the server counts a game played offline: never clean
    clean: { played: 0, won: 0, current_streak: 0, best_streak: 0, best_score: null, best_time: null },
    daily: { played: 0, won: 0, current_streak: 0, best_streak: 0 },
  };
}

/**
 * What the server is sent of each game of this device (docs/records.md, the deal as digits), and what became of
 * it: the moves the server holds (`sent`), the code of its refusal (`refused`).
 * @returns {Promise<{id: string, record: DeviceRecord, outcome: Outcome, sent: string | null, refused: string | null}[]>}
 */
export async function deviceRecords() {
  return (await readAll()).map(({ id, record, outcome, sent = null, refused = null }) => ({
    id,
    record,
    outcome,
    sent,
    refused,
  }));
}

/**
 * The server stored the game `id` as it holds `moves` now (their JSON).
 * @param {string} id
 * @param {string} moves
 */
export const markSent = (id, moves) => note(id, { sent: moves, refused: null });

/**
 * The server refused the game `id` (`code`: bad_record, offline_conflict…): it stays here, no more sent.
 * @param {string} id
 * @param {string} code
 */
export const markRefused = (id, code) => note(id, { refused: code });

/**
 * Forget the game `id`, over and stored by the server, which lists it from now on.
 * @param {string} id
 * @returns {Promise<void>}
 */
export function forget(id) {
  return transact("readwrite", (store, done) => {
    store.delete(id);
    done(undefined);
  });
}

export const device = { newGame, getGame, move, undo, redo, restart, hint, replay, listGames, stats };
