// @ts-check
// The rules of Foursquare in the page: the same game as the Python engine (src/foursquare/engine.py, which
// implements docs/rules.md), move for move — legal cells, placing, the flips with their line and reason, the
// face-down count, the outcome and score, undo and redo, the house rules, and the numbered deals' shuffle.
// It is a copy, kept honest like the compiled kernel: tests/js/engine.test.mjs replays thousands of random
// games of the Python engine through it (tests/test_js_engine.py) and compares every state and every flip, and
// tests/js/perft.test.mjs checks that it counts the golden perft table (tests/golden/perft.json) as every copy must.
// Change the rules in engine.py and docs/rules.md first, then here. No DOM: Node imports it as it is.
//
// Names are the engine's: a card is its short name ("3S", "AH", "10D"), a cell (row, col) with the first card
// at (0, 0) and rows growing downward, named by its column letter A-G and row number 1-7 (the first at "D4").
// What the page shows of a game has the API's shapes (docs/api.md, "The state object"): see Game.state().

export const DECK_SIZE = 40;
export const GRID = 4;
export const PILE_CAP = 4;
export const MAX_FACE_DOWN = 4;
export const WINNING_CELLS = GRID * GRID;
/** How far from the first card a game can reach (every game stays in the 7 × 7 area around it). */
export const AREA_REACH = GRID - 1;
export const AREA_SIDE = 2 * GRID - 1;
export const COLUMN_LETTERS = "ABCDEFG";
export const SUITS = "CDHS";
/** Deal numbers run from 0 to MAX_DEAL - 1 (2⁶⁴ - 1). */
export const MAX_DEAL = 1n << 64n;

const MASK64 = MAX_DEAL - 1n;

/**
 * @typedef {"orthogonal" | "diagonal"} Adjacency
 * @typedef {{adjacency: Adjacency, count_buried: boolean}} Variant the house rules, as in a record and the API
 * @typedef {"playing" | "won" | "lost"} Status
 * @typedef {"sixteen_face_up" | "too_many_face_down" | "stock_empty"} Reason
 * @typedef {"row" | "column"} Line
 * @typedef {"highest" | "lowest" | "none_face_up"} FlipReason
 * @typedef {{status: Status, reason: Reason | null, score: number | null}} Outcome score: null while
 *   playing, the cards left after a win, 0 after a loss
 * @typedef {{row: number, col: number}} Move
 * @typedef {{row: number, col: number, cell: string, card: string, face_up: boolean, line: Line,
 *   reason: FlipReason}} Flip a top card that turned over, which way it now faces, the check that turned it, why
 * @typedef {{row: number, col: number, cell: string, card: string, flips: Flip[], outcome: Outcome}} Placement
 * @typedef {{row: number, col: number, cell: string, cards: string[], face_up: boolean[]}} Pile a pile, bottom
 *   card first, and which way each card faces
 * @typedef {{row: number, col: number, cell: string, height: number, card: string, face_up: boolean}} Cell a
 *   pile as the API shows it: its top card
 * @typedef {{min_row: number, max_row: number, min_col: number, max_col: number, column_names: string[],
 *   row_names: string[]}} Area
 * @typedef {object} State the fields of the API's state object that the rules decide
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
 * @property {Status} outcome
 * @property {Reason | null} reason
 * @property {number | null} score
 * @property {boolean} can_undo as the server offers it: false once the game is over
 * @property {boolean} can_redo as the server offers it: false once the game is over
 * @typedef {"game_over" | "first_card" | "pile_full" | "not_adjacent" | "outside_4x4" | "bad_cell"} IllegalReason
 * @typedef {bigint | number | string} DealNumber a bigint, a safe integer, or a string of digits
 */

/** Something asked of the rules is malformed: a card name, a stock, a deal number, a variant, a cell name. */
export class RulesError extends Error {
  /**
   * @param {string} message
   * @param {string} code a stable word: "bad_card", "bad_stock", "bad_deal", "bad_variant" or "bad_cell_name"
   */
  constructor(message, code) {
    super(message);
    this.name = "RulesError";
    this.code = code;
  }
}

/** A card cannot be placed where asked; `reason` says why, in the engine's words (its IllegalMoveError). */
export class IllegalMoveError extends Error {
  /**
   * @param {unknown} row
   * @param {unknown} col
   * @param {IllegalReason} reason
   * @param {string} explanation
   */
  constructor(row, col, reason, explanation) {
    super(`cannot place a card at (${String(row)}, ${String(col)}): ${explanation}`);
    this.name = "IllegalMoveError";
    this.row = row;
    this.col = col;
    this.reason = reason;
    this.code = reason;
    this.explanation = explanation;
  }
}

// --- cards ---------------------------------------------------------------------------------------------
// A card is an index 0-39 inside this module: (rank - 1) * 4 + suit, suits in the order C, D, H, S (the
// deck's order before the shuffle); outside it, its name.

/** @param {number} card */
const rankOf = (card) => Math.floor(card / 4) + 1;

/**
 * The short name of card `index` (0-39): "AC", "10S".
 * @param {number} index
 */
export function cardName(index) {
  if (!Number.isInteger(index) || index < 0 || index >= DECK_SIZE) {
    throw new RulesError(`card index ${index} is not in 0..39`, "bad_card");
  }
  const rank = rankOf(index);
  return (rank === 1 ? "A" : String(rank)) + SUITS[index % 4];
}

/** @type {readonly string[]} */
export const ALL_CARDS = Object.freeze(Array.from({ length: DECK_SIZE }, (_, i) => cardName(i)));

/**
 * The index (0-39) of the card named `name` ("AC", "7h", "10S"; case and blanks around it do not matter).
 * @param {string} name
 */
export function cardIndex(name) {
  const text = typeof name === "string" ? name.trim().toUpperCase() : "";
  const match = /^(A|[2-9]|10)([CDHS])$/.exec(text);
  if (match === null) {
    throw new RulesError(`bad card name ${JSON.stringify(name)}: expected a rank A, 2..10 and a suit C, D, H, S`, "bad_card");
  }
  const rank = match[1] === "A" ? 1 : Number(match[1]);
  return (rank - 1) * 4 + SUITS.indexOf(match[2]);
}

/**
 * The rank of a card, 1 (ace, low) to 10 (high).
 * @param {string} name
 */
export const cardRank = (name) => rankOf(cardIndex(name));

// --- numbered deals --------------------------------------------------------------------------------------

/**
 * The SplitMix64 generator seeded with `seed` (taken modulo 2⁶⁴), as an endless iterator of 64-bit numbers.
 * @param {bigint} seed
 * @returns {Generator<bigint, never, void>}
 */
export function* splitmix64(seed) {
  let state = BigInt.asUintN(64, seed);
  for (;;) {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    yield z ^ (z >> 31n);
  }
}

/**
 * A deal number as a bigint, checked to lie in 0 .. 2⁶⁴ - 1. A number above 2⁵³ has lost its last digits
 * already, so give such a deal as a bigint or a string of digits.
 * @param {DealNumber} deal
 */
export function checkDealNumber(deal) {
  /** @type {bigint} */
  let value;
  if (typeof deal === "bigint") {
    value = deal;
  } else if (typeof deal === "number" && Number.isSafeInteger(deal)) {
    value = BigInt(deal);
  } else if (typeof deal === "string" && /^[0-9]{1,20}$/.test(deal)) {
    value = BigInt(deal);
  } else {
    throw new RulesError(`deal number must be a whole number from 0 to 2**64 - 1, not ${String(deal)}`, "bad_deal");
  }
  if (value < 0n || value >= MAX_DEAL) {
    throw new RulesError(`deal number ${value} is outside 0 .. 2**64 - 1`, "bad_deal");
  }
  return value;
}

/**
 * The stock order of deal `deal`, first card drawn first: Fisher–Yates over the ordered deck (AC AD AH AS
 * 2C … 10S), swapping position i with position next() mod (i + 1) for i from 39 down to 1, the numbers drawn
 * from SplitMix64 seeded with the deal number.
 * @param {DealNumber} deal
 * @returns {string[]}
 */
export function dealStock(deal) {
  return dealIndices(checkDealNumber(deal)).map(cardName);
}

/** @param {bigint} deal */
function dealIndices(deal) {
  const positions = Array.from({ length: DECK_SIZE }, (_, i) => i);
  const numbers = splitmix64(deal);
  for (let i = DECK_SIZE - 1; i > 0; i -= 1) {
    const j = Number(numbers.next().value % BigInt(i + 1));
    [positions[i], positions[j]] = [positions[j], positions[i]];
  }
  return positions;
}

/** A random deal number, from the platform's cryptographic generator (as the server draws them). */
export function randomDealNumber() {
  return globalThis.crypto.getRandomValues(new BigUint64Array(1))[0];
}

/**
 * An explicit stock order's card indices: exactly the 40 cards, each once.
 * @param {readonly string[]} names
 */
function parseStock(names) {
  if (!Array.isArray(names)) throw new RulesError("stock must be a list of 40 card names", "bad_stock");
  /** @type {Map<number, number>} */
  const seen = new Map();
  const cards = names.map((name, index) => {
    let card;
    try {
      card = cardIndex(name);
    } catch (error) {
      throw new RulesError(`stock position ${index}: ${error instanceof Error ? error.message : error}`, "bad_stock");
    }
    const before = seen.get(card);
    if (before !== undefined) {
      throw new RulesError(`stock position ${index}: duplicate card ${cardName(card)} (also at position ${before})`, "bad_stock");
    }
    seen.set(card, index);
    return card;
  });
  if (cards.length !== DECK_SIZE) {
    const missing = ALL_CARDS.filter((_, i) => !seen.has(i)).join(", ");
    throw new RulesError(`stock has ${cards.length} cards, not 40 (missing: ${missing})`, "bad_stock");
  }
  return cards;
}

// --- cells ------------------------------------------------------------------------------------------------

/**
 * The letter of column `col` (A-G from the left, D for the first card's); "" outside the named area.
 * @param {number} col
 */
export const columnName = (col) => (Math.abs(col) <= AREA_REACH ? COLUMN_LETTERS[col + AREA_REACH] : "");

/**
 * The number of row `row` (1-7 from the top, 4 for the first card's); "" outside the named area.
 * @param {number} row
 */
export const rowName = (row) => (Math.abs(row) <= AREA_REACH ? String(row + AREA_REACH + 1) : "");

/**
 * The name of cell (row, col): "D4" for the first card's.
 * @param {number} row
 * @param {number} col
 */
export function cellName(row, col) {
  if (!inArea(row, col)) {
    throw new RulesError(`(${row}, ${col}) lies outside the ${AREA_SIDE} × ${AREA_SIDE} area of named cells`, "bad_cell_name");
  }
  return columnName(col) + rowName(row);
}

/**
 * The cell named `name`: a column letter A-G and a row number 1-7 ("D4", "b7").
 * @param {string} name
 * @returns {Move}
 */
export function cellOfName(name) {
  const text = typeof name === "string" ? name.trim().toUpperCase() : "";
  if (!/^[A-G][1-7]$/.test(text)) {
    throw new RulesError(`expected a cell name from A1 to G7 (column letter, row number), not ${JSON.stringify(name)}`, "bad_cell_name");
  }
  return { row: Number(text[1]) - AREA_REACH - 1, col: COLUMN_LETTERS.indexOf(text[0]) - AREA_REACH };
}

/** @type {Readonly<Area>} the 7 × 7 area every game stays inside, and its columns' and rows' names (the API's) */
export const AREA = Object.freeze({
  min_row: -AREA_REACH,
  max_row: AREA_REACH,
  min_col: -AREA_REACH,
  max_col: AREA_REACH,
  column_names: Array.from({ length: AREA_SIDE }, (_, i) => columnName(i - AREA_REACH)),
  row_names: Array.from({ length: AREA_SIDE }, (_, i) => rowName(i - AREA_REACH)),
});

/**
 * @param {number} row
 * @param {number} col
 */
const inArea = (row, col) =>
  Number.isInteger(row) && Number.isInteger(col) && Math.abs(row) <= AREA_REACH && Math.abs(col) <= AREA_REACH;

/**
 * The key of an occupied cell in a game's map of piles (every pile lies in the area).
 * @param {number} row
 * @param {number} col
 */
const keyOf = (row, col) => (row + AREA_REACH) * AREA_SIDE + (col + AREA_REACH);

// --- house rules -----------------------------------------------------------------------------------------

const ORTHOGONAL_STEPS = /** @type {const} */ ([[-1, 0], [0, -1], [0, 1], [1, 0]]);
const DIAGONAL_STEPS = /** @type {const} */ ([[-1, -1], [-1, 1], [1, -1], [1, 1]]);

/**
 * The house rules of `data` (the record's and the API's object; missing fields take the defaults, orthogonal
 * and false), checked as the engine checks them.
 * @param {unknown} [data]
 * @returns {Variant}
 */
export function variantOf(data) {
  if (data === undefined || data === null) return { adjacency: "orthogonal", count_buried: false };
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new RulesError('variant must be an object like {"adjacency": "orthogonal", "count_buried": false}', "bad_variant");
  }
  const fields = /** @type {Record<string, unknown>} */ (data);
  const unknown = Object.keys(fields).filter((key) => key !== "adjacency" && key !== "count_buried").sort();
  if (unknown.length > 0) throw new RulesError(`unknown variant field(s): ${unknown.join(", ")}`, "bad_variant");
  const adjacency = "adjacency" in fields ? fields.adjacency : "orthogonal";
  const countBuried = "count_buried" in fields ? fields.count_buried : false;
  if (adjacency !== "orthogonal" && adjacency !== "diagonal") {
    throw new RulesError(`adjacency must be 'orthogonal' or 'diagonal', not ${JSON.stringify(adjacency)}`, "bad_variant");
  }
  if (typeof countBuried !== "boolean") {
    throw new RulesError(`count_buried must be true or false, not ${JSON.stringify(countBuried)}`, "bad_variant");
  }
  return { adjacency, count_buried: countBuried };
}

// --- outcomes --------------------------------------------------------------------------------------------

/** @type {Readonly<Outcome>} */
const PLAYING = Object.freeze({ status: "playing", reason: null, score: null });

/**
 * A short English sentence, the engine's: "won with score 7", "lost: the stock ran out", "playing".
 * @param {Outcome} outcome
 */
export function outcomeText(outcome) {
  if (outcome.status === "won") return `won with score ${outcome.score}`;
  if (outcome.reason === "too_many_face_down") return `lost: more than ${MAX_FACE_DOWN} cards face down`;
  if (outcome.reason === "stock_empty") return "lost: the stock ran out";
  return "playing";
}

/**
 * Why a card of `rank` turns its line over, given the ranks of the line's other face-up tops; null if it does
 * not: strictly higher or lower than all of them, or none of them face up.
 * @param {number} rank
 * @param {number[]} faceUpRanks
 * @returns {FlipReason | null}
 */
function flipReason(rank, faceUpRanks) {
  if (faceUpRanks.length === 0) return "none_face_up";
  if (rank > Math.max(...faceUpRanks)) return "highest";
  if (rank < Math.min(...faceUpRanks)) return "lowest";
  return null;
}

// --- the game --------------------------------------------------------------------------------------------

/**
 * The cards on one cell, bottom first, and which way each faces.
 * @typedef {{row: number, col: number, cards: number[], faceUp: boolean[]}} OwnPile
 * @typedef {{placement: Placement, created: boolean}} Step
 */

/**
 * @param {OwnPile} pile
 * @returns {Pile}
 */
const pileView = (pile) => ({
  row: pile.row,
  col: pile.col,
  cell: cellName(pile.row, pile.col),
  cards: pile.cards.map(cardName),
  face_up: [...pile.faceUp],
});

/**
 * A placement that no one can change (a game keeps it in its history, to take it back).
 * @param {Placement} placement
 * @returns {Placement}
 */
function frozen(placement) {
  placement.flips.forEach(Object.freeze);
  Object.freeze(placement.flips);
  Object.freeze(placement.outcome);
  return Object.freeze(placement);
}

/** @param {OwnPile} pile */
const topFaceUp = (pile) => pile.faceUp[pile.faceUp.length - 1];

/**
 * (row, col) order, for piles and moves.
 * @param {Move} a
 * @param {Move} b
 */
const byCell = (a, b) => a.row - b.row || a.col - b.col;

/**
 * One game of Foursquare: a stock order, a variant, and the cards placed so far (the engine's Game).
 *
 *     const game = new Game({ deal: 1 });       // or { deal: 18446744073709551615n }, { stock: [...40 names] }
 *     game.cardToPlace;                         // "3S"
 *     game.place(0, 0); game.place(0, 1).flips; // [{cell: "D4", card: "3S", face_up: false, line: "row", …}]
 */
export class Game {
  /**
   * Give a `deal` number, or an explicit `stock` (the 40 card names, drawn first to last), or neither for a
   * random deal; `variant` is the house rules (the defaults when left out).
   * @param {{deal?: DealNumber | null, stock?: readonly string[] | null, variant?: Partial<Variant> | null}} [options]
   */
  constructor({ deal = null, stock = null, variant = null } = {}) {
    if (deal !== null && stock !== null) throw new RulesError("give a deal number or a stock order, not both", "bad_deal");
    /** @type {bigint | null} */
    this._deal = null;
    /** @type {number[]} */
    this._stock = [];
    if (stock !== null) {
      this._stock = parseStock(stock);
    } else {
      this._deal = deal === null ? randomDealNumber() : checkDealNumber(deal);
      this._stock = dealIndices(this._deal);
    }
    /** @type {Variant} */
    this._variant = variantOf(variant);
    this._steps = this._variant.adjacency === "diagonal" ? [...ORTHOGONAL_STEPS, ...DIAGONAL_STEPS] : ORTHOGONAL_STEPS;
    /** @type {Map<number, OwnPile>} */
    this._piles = new Map();
    this._turn = 0;
    /** @type {Step[]} */
    this._history = [];
    /** @type {Move[]} undone moves, the next to redo last */
    this._redo = [];
    /** @type {Outcome} */
    this._outcome = PLAYING;
  }

  // --- what a game is ---

  /** The deal number; null for a game made from an explicit stock. */
  get deal() {
    return this._deal;
  }

  /** The whole stock order. Secret: never show it to a player. */
  get stock() {
    return this._stock.map(cardName);
  }

  /** @returns {Variant} */
  get variant() {
    return { ...this._variant };
  }

  /** How many cards have been placed. */
  get turn() {
    return this._turn;
  }

  /** Cards still in the stock, the card to place included (the score of a win). */
  get stockLeft() {
    return DECK_SIZE - this._turn;
  }

  /** @returns {string | null} the card to place; null once the game is over */
  get cardToPlace() {
    return this._outcome.status !== "playing" ? null : cardName(this._stock[this._turn]);
  }

  /** @returns {Move[]} the moves played, first first */
  get moves() {
    return this._history.map(({ placement }) => ({ row: placement.row, col: placement.col }));
  }

  /** @returns {Placement[]} */
  get placements() {
    return this._history.map(({ placement }) => placement);
  }

  /** @returns {Move[]} undone moves that redo() would play again, next first */
  get redoMoves() {
    return [...this._redo].reverse().map(({ row, col }) => ({ row, col }));
  }

  get canUndo() {
    return this._history.length > 0;
  }

  get canRedo() {
    return this._redo.length > 0;
  }

  /**
   * The pile at (row, col), or null for an empty cell.
   * @param {number} row
   * @param {number} col
   * @returns {Pile | null}
   */
  pile(row, col) {
    const pile = this._pileAt(row, col);
    return pile === undefined ? null : pileView(pile);
  }

  /** @returns {Pile[]} every pile, sorted by (row, col) */
  piles() {
    return [...this._piles.values()].sort(byCell).map(pileView);
  }

  /** @returns {Cell[]} every pile's top, sorted by (row, col): the API's `cells` */
  cells() {
    return [...this._piles.values()].sort(byCell).map((pile) => ({
      row: pile.row,
      col: pile.col,
      cell: cellName(pile.row, pile.col),
      height: pile.cards.length,
      card: cardName(pile.cards[pile.cards.length - 1]),
      face_up: topFaceUp(pile),
    }));
  }

  /** @returns {{min_row: number, max_row: number, min_col: number, max_col: number} | null} the box of the occupied cells */
  bounds() {
    if (this._piles.size === 0) return null;
    const rows = [...this._piles.values()].map((p) => p.row);
    const cols = [...this._piles.values()].map((p) => p.col);
    return { min_row: Math.min(...rows), max_row: Math.max(...rows), min_col: Math.min(...cols), max_col: Math.max(...cols) };
  }

  /** Face-down cards that count towards the limit (tops; covered ones too under count_buried). */
  get faceDown() {
    let count = 0;
    for (const pile of this._piles.values()) {
      if (!topFaceUp(pile)) count += 1;
      if (this._variant.count_buried) count += pile.faceUp.slice(0, -1).filter((up) => !up).length;
    }
    return count;
  }

  /** @returns {Outcome} */
  get outcome() {
    return { ...this._outcome };
  }

  get isOver() {
    return this._outcome.status !== "playing";
  }

  // --- legality ---

  /** @returns {Move[]} every cell the card to place may go to, in (row, col) order */
  get legalMoves() {
    if (this.isOver) return [];
    const bounds = this.bounds();
    if (bounds === null) return [{ row: 0, col: 0 }];
    /** @type {Map<number, Move>} */
    const moves = new Map();
    for (const pile of this._piles.values()) {
      if (pile.cards.length < PILE_CAP) moves.set(keyOf(pile.row, pile.col), { row: pile.row, col: pile.col });
      for (const [dr, dc] of this._steps) {
        const row = pile.row + dr;
        const col = pile.col + dc;
        if (this._pileAt(row, col) !== undefined) continue;
        const rows = Math.max(bounds.max_row, row) - Math.min(bounds.min_row, row);
        const cols = Math.max(bounds.max_col, col) - Math.min(bounds.min_col, col);
        if (rows < GRID && cols < GRID) moves.set(keyOf(row, col), { row, col });
      }
    }
    return [...moves.values()].sort(byCell);
  }

  /** @returns {string[]} the names of the legal cells, in the same order */
  get legalCells() {
    return this.legalMoves.map(({ row, col }) => cellName(row, col));
  }

  /**
   * Why a card may not go to (row, col), or null when it may.
   * @param {number} row
   * @param {number} col
   * @returns {IllegalMoveError | null}
   */
  illegality(row, col) {
    if (!Number.isInteger(row) || !Number.isInteger(col)) {
      return new IllegalMoveError(row, col, "bad_cell", "row and column must be integers");
    }
    if (this.isOver) {
      return new IllegalMoveError(row, col, "game_over", `the game is over (${outcomeText(this._outcome)})`);
    }
    const bounds = this.bounds();
    if (bounds === null) {
      return row === 0 && col === 0 ? null : new IllegalMoveError(row, col, "first_card", "the first card goes to D4");
    }
    const pile = this._pileAt(row, col);
    if (pile !== undefined) {
      if (pile.cards.length >= PILE_CAP) {
        return new IllegalMoveError(row, col, "pile_full", `the pile there already holds ${PILE_CAP} cards`);
      }
      return null;
    }
    if (!this._steps.some(([dr, dc]) => this._pileAt(row + dr, col + dc) !== undefined)) {
      const where = this._variant.adjacency === "diagonal" ? "orthogonally or diagonally" : "orthogonally";
      return new IllegalMoveError(row, col, "not_adjacent", `the cell is empty and not ${where} next to a card`);
    }
    const rows = Math.max(bounds.max_row, row) - Math.min(bounds.min_row, row) + 1;
    const cols = Math.max(bounds.max_col, col) - Math.min(bounds.min_col, col) + 1;
    if (rows > GRID || cols > GRID) {
      const span = rows > GRID ? `${rows} rows` : `${cols} columns`;
      return new IllegalMoveError(row, col, "outside_4x4", `the grid would span ${span}, more than 4`);
    }
    return null;
  }

  /**
   * @param {number} row
   * @param {number} col
   */
  isLegal(row, col) {
    return this.illegality(row, col) === null;
  }

  // --- playing ---

  /**
   * Place the card to place at (row, col), or throw its IllegalMoveError; clears the redo list unless it
   * replays its next move.
   * @param {number} row
   * @param {number} col
   * @returns {Placement}
   */
  place(row, col) {
    const placement = this._place(row, col);
    const next = this._redo[this._redo.length - 1];
    if (next !== undefined && next.row === row && next.col === col) {
      this._redo.pop();
    } else {
      this._redo.length = 0;
    }
    return placement;
  }

  /**
   * @param {number} row
   * @param {number} col
   * @returns {Placement}
   */
  _place(row, col) {
    const error = this.illegality(row, col);
    if (error !== null) throw error;
    const card = this._stock[this._turn];
    let pile = this._pileAt(row, col);
    const created = pile === undefined;
    if (pile === undefined) {
      pile = { row, col, cards: [], faceUp: [] };
      this._piles.set(keyOf(row, col), pile);
    }
    pile.cards.push(card);
    pile.faceUp.push(true);
    /** @type {Flip[]} */
    const flips = [];
    const rank = rankOf(card);
    for (const line of /** @type {const} */ (["row", "column"])) {
      const others = [...this._piles.values()]
        .filter((p) => p !== pile && (line === "row" ? p.row === row : p.col === col))
        .sort(byCell);
      if (others.length === 0) continue;
      const faceUpRanks = others.filter(topFaceUp).map((p) => rankOf(p.cards[p.cards.length - 1]));
      const reason = flipReason(rank, faceUpRanks);
      if (reason === null) continue;
      for (const other of others) {
        const top = other.faceUp.length - 1;
        other.faceUp[top] = !other.faceUp[top];
        flips.push({
          row: other.row,
          col: other.col,
          cell: cellName(other.row, other.col),
          card: cardName(other.cards[top]),
          face_up: other.faceUp[top],
          line,
          reason,
        });
      }
    }
    this._turn += 1;
    this._outcome = this._judge();
    const placement = frozen({ row, col, cell: cellName(row, col), card: cardName(card), flips, outcome: this._outcome });
    this._history.push({ placement, created });
    return placement;
  }

  /** @returns {Outcome} */
  _judge() {
    const piles = [...this._piles.values()];
    if (piles.length === WINNING_CELLS && piles.every(topFaceUp)) {
      return { status: "won", reason: "sixteen_face_up", score: DECK_SIZE - this._turn };
    }
    if (this.faceDown > MAX_FACE_DOWN) return { status: "lost", reason: "too_many_face_down", score: 0 };
    if (this._turn === DECK_SIZE) return { status: "lost", reason: "stock_empty", score: 0 };
    return PLAYING;
  }

  /**
   * Take back the last placement (it is not kept for redo); throws a RangeError before the first card.
   * @returns {Placement}
   */
  pop() {
    const step = this._history.pop();
    if (step === undefined) throw new RangeError("no card has been placed");
    for (const flip of step.placement.flips) {
      const turned = /** @type {OwnPile} */ (this._pileAt(flip.row, flip.col));
      turned.faceUp[turned.faceUp.length - 1] = !turned.faceUp[turned.faceUp.length - 1];
    }
    const { row, col } = step.placement;
    const pile = /** @type {OwnPile} */ (this._pileAt(row, col));
    pile.cards.pop();
    pile.faceUp.pop();
    if (step.created) this._piles.delete(keyOf(row, col));
    this._turn -= 1;
    const last = this._history[this._history.length - 1];
    this._outcome = last === undefined ? PLAYING : last.placement.outcome;
    return step.placement;
  }

  /**
   * Take back the last placement, keeping it for redo().
   * @returns {Placement}
   */
  undo() {
    const placement = this.pop();
    this._redo.push({ row: placement.row, col: placement.col });
    return placement;
  }

  /**
   * Play the last undone move again; throws a RangeError when there is none.
   * @returns {Placement}
   */
  redo() {
    const move = this._redo.pop();
    if (move === undefined) throw new RangeError("nothing to redo");
    return this._place(move.row, move.col);
  }

  /** Back to the first card, same stock; the redo list is dropped. */
  restart() {
    while (this._history.length > 0) this.pop();
    this._redo.length = 0;
  }

  /** An independent game in the same position, with the same history and redo list. */
  copy() {
    const other = new Game({ stock: this.stock, variant: this._variant });
    other._deal = this._deal;
    for (const [key, pile] of this._piles) {
      other._piles.set(key, { row: pile.row, col: pile.col, cards: [...pile.cards], faceUp: [...pile.faceUp] });
    }
    other._history = [...this._history]; // placements are frozen: the two games may share them
    other._turn = this._turn;
    other._redo = this._redo.map((move) => ({ ...move }));
    other._outcome = this._outcome;
    return other;
  }

  /** @returns {State} the fields of the API's state object that the rules decide (docs/api.md) */
  state() {
    const legal = this.legalMoves;
    const over = this.isOver;
    return {
      variant: this.variant,
      turn: this._turn,
      card: this.cardToPlace,
      stock_left: this.stockLeft,
      face_down: this.faceDown,
      max_face_down: MAX_FACE_DOWN,
      cells: this.cells(),
      legal: legal.map(({ row, col }) => /** @type {[number, number]} */ ([row, col])),
      legal_cells: legal.map(({ row, col }) => cellName(row, col)),
      area: AREA,
      outcome: this._outcome.status,
      reason: this._outcome.reason,
      score: this._outcome.score,
      can_undo: this.canUndo && !over,
      can_redo: this.canRedo && !over,
    };
  }

  /**
   * @param {number} row
   * @param {number} col
   */
  _pileAt(row, col) {
    return inArea(row, col) ? this._piles.get(keyOf(row, col)) : undefined;
  }
}
