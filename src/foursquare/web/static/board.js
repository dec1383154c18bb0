// @ts-check
// The floating grid: a CSS grid laid over the bounding box of the occupied and highlighted cells, with
// the column letters below it and the row numbers on its left, like a chessboard's files and ranks.
// It only draws what the server says (cells, legal cells, the names of the area's columns and rows); it
// knows no rule of the game. When the box grows or moves, the cells glide to their new places.

import { createCard, flipDuration, setCard } from "./cards.js";
import { el } from "./dom.js";
import { cardName, integer, t } from "./i18n.js";

/**
 * @typedef {import("./api.js").Cell} Cell
 * @typedef {import("./api.js").Area} Area
 * @typedef {{minRow: number, maxRow: number, minCol: number, maxCol: number}} Frame
 * @typedef {{row: number, col: number, label: string}} HintBadge a ranked move (the best first)
 * @typedef {HintBadge & {rank: number}} RankedHint
 * @typedef {{row: number, col: number, kind: string, label: string}} Marker
 * @typedef {{row: number, col: number, key: string}} LegalCell
 */

/**
 * What the board draws (see Board.render).
 * @typedef {object} BoardView
 * @property {Cell[]} [cells]
 * @property {[number, number][]} [legal]
 * @property {string | null} card the card to place
 * @property {boolean} interactive
 * @property {{row: number, col: number} | null} [placed]
 * @property {DOMRect | null} [flyFrom]
 * @property {HintBadge[]} [hint]
 * @property {Marker[]} [markers]
 * @property {Frame} [frame]
 * @property {Area} [area]
 */

/**
 * @param {number} row
 * @param {number} col
 */
const key = (row, col) => `${row},${col}`;

/** @type {Record<string, [number, number]>} */
const ARROWS = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

const FLY_MS = 240;
const SHIFT_MS = 260;

/**
 * Where each element is on screen now (to animate from, once the grid has been laid out anew).
 * @param {Iterable<HTMLElement>} elements
 */
function rectsOf(elements) {
  return new Map([...elements].map((element) => [element, element.getBoundingClientRect()]));
}

/** @type {WeakMap<HTMLElement, number>} the timer that ends each card's flight */
const flyTimers = new WeakMap();

/**
 * The legal slot that an event's target is in, if any.
 * @param {Event} event
 * @returns {HTMLElement | null | undefined}
 */
const legalSlotOf = (event) => /** @type {Element} */ (event.target).closest?.(".slot.legal");

/**
 * Move `card` from the rectangle `from` (where the card to place was) to where it now lies.
 * @param {HTMLElement} card
 * @param {DOMRect} from
 */
function flyIn(card, from) {
  const to = card.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const scale = from.width / to.width;
  card.classList.remove("dealt");
  card.classList.add("flying");
  card.style.transition = "none";
  card.style.transformOrigin = "0 0";
  card.style.transform = `translate(${dx}px, ${dy}px) scale(${scale})`;
  void card.offsetWidth;
  card.style.transition = `transform ${FLY_MS}ms cubic-bezier(0.25, 0.8, 0.35, 1)`;
  card.style.transform = "";
  clearTimeout(flyTimers.get(card));
  flyTimers.set(
    card,
    setTimeout(() => {
      card.classList.remove("flying");
      card.style.transition = "";
      card.style.transformOrigin = "";
    }, FLY_MS + 30),
  );
}

export class Board {
  /**
   * @param {HTMLElement} element the grid container
   * @param {{onPlace?: (row: number, col: number) => unknown}} [handlers] (onPlace may also be set later)
   */
  constructor(element, { onPlace = () => {} } = {}) {
    this.element = element;
    this.onPlace = onPlace;
    /** @type {Map<string, HTMLElement>} */
    this.slots = new Map();
    /** @type {LegalCell[]} */
    this.legal = [];
    /** @type {string | null} */
    this.focusKey = null;
    this.interactive = false;
    /** @type {string | null | undefined} the card to place, while the board is interactive */
    this.card = undefined;
    this.origin = { row: 0, col: 0 };
    /** @type {Frame | null} */
    this.frame = null; // drawn last
    /** @type {Area | null} */
    this.area = null; // the state's "area": the names of its columns and rows
    /** @type {Map<string, HTMLElement>} */
    this.edges = new Map(); // "col,3" / "row,-1" → the label on the board's edge
    this.shiftTimer = 0;
    /** @type {number | undefined} */
    this.celebrateTimer = undefined;
    element.addEventListener("click", (event) => this.#onClick(event));
    element.addEventListener("keydown", (event) => this.#onKey(event));
    // Hovering a highlighted cell shows a faint preview of the card there (mouse and pen only).
    this.canHover = window.matchMedia("(hover: hover)");
    // Not over the card just placed while the pointer stays on its cell: the player is looking at that card.
    /** @type {string | null} */
    this.quietKey = null;
    element.addEventListener("pointerover", (event) => {
      const slot = legalSlotOf(event);
      if (slot?.dataset.key !== this.quietKey) this.quietKey = null;
      this.#preview(slot);
    });
    element.addEventListener("pointerleave", () => {
      this.quietKey = null;
      this.#preview(null);
    });
    element.addEventListener("focusin", (event) => {
      const slot = legalSlotOf(event);
      if (slot) this.#setFocusKey(/** @type {string} */ (slot.dataset.key));
    });
  }

  /** Forget the position drawn (another game is shown): an empty board, which then draws without gliding. */
  clear() {
    this.element.replaceChildren();
    this.slots.clear();
    this.edges.clear();
    this.frame = null;
  }

  /**
   * Row and column counted from the top-left of the drawn grid (they change as it grows: say cellName).
   * @param {number} row
   * @param {number} col
   */
  displayCoords(row, col) {
    return { row: row - this.origin.row + 1, col: col - this.origin.col + 1 };
  }

  /**
   * The server's letter of column `col` ("" outside the named area, or before any state).
   * @param {number} col
   * @returns {string}
   */
  columnName(col) {
    return this.area?.column_names[col - this.area.min_col] ?? "";
  }

  /**
   * The server's number of row `row`, as text ("" outside the named area).
   * @param {number} row
   * @returns {string}
   */
  rowName(row) {
    return this.area?.row_names[row - this.area.min_row] ?? "";
  }

  /**
   * The cell's one name for the whole game ("D4" for the first card's), as the server names it.
   * @param {number} row
   * @param {number} col
   */
  cellName(row, col) {
    const column = this.columnName(col);
    const number = this.rowName(row);
    return column && number ? column + number : "";
  }

  /**
   * Draw a position.
   * view: {cells, legal, card, interactive, placed: {row,col}|null, hint: [{row,col,label}],
   *        markers: [{row, col, kind, label}], frame: {minRow, maxRow, minCol, maxCol}|undefined,
   *        area: the state's area (the names of columns and rows; kept from the last view that had one)}
   * Returns the number of cards that started a flip animation.
   * @param {BoardView} view
   */
  render(view) {
    const cells = view.cells ?? [];
    const legal = view.interactive ? (view.legal ?? []) : [];
    const markers = view.markers ?? [];
    if (view.area) this.area = view.area;
    this.interactive = Boolean(view.interactive);
    this.card = view.interactive ? view.card : null;
    if (view.placed) this.quietKey = key(view.placed.row, view.placed.col);
    this.#preview(null);
    this.legal = legal.map(([row, col]) => ({ row, col, key: key(row, col) }));
    const legalKeys = new Set(this.legal.map((cell) => cell.key));
    const byKey = new Map(cells.map((cell) => [key(cell.row, cell.col), cell]));

    const positions = new Map();
    for (const cell of cells) positions.set(key(cell.row, cell.col), [cell.row, cell.col]);
    for (const cell of this.legal) positions.set(cell.key, [cell.row, cell.col]);
    for (const marker of markers) positions.set(key(marker.row, marker.col), [marker.row, marker.col]);
    if (positions.size === 0) positions.set(key(0, 0), [0, 0]);

    const rows = [...positions.values()].map(([r]) => r);
    const cols = [...positions.values()].map(([, c]) => c);
    if (view.frame) {
      // A fixed frame (the replay uses the final grid's) keeps the cards from shifting between steps.
      rows.push(view.frame.minRow, view.frame.maxRow);
      cols.push(view.frame.minCol, view.frame.maxCol);
    }
    const minRow = Math.min(...rows);
    const minCol = Math.min(...cols);
    const frame = { minRow, maxRow: Math.max(...rows), minCol, maxCol: Math.max(...cols) };
    const moved = this.#frameMoved(frame);
    /** @type {NodeListOf<HTMLElement>} */
    const drawn = this.element.querySelectorAll(":scope > .slot, :scope > .edge");
    const before = moved ? rectsOf(drawn) : null;
    this.frame = frame;
    this.origin = { row: minRow, col: minCol };
    this.element.style.setProperty("--rows", String(frame.maxRow - minRow + 1));
    this.element.style.setProperty("--cols", String(frame.maxCol - minCol + 1));
    this.element.classList.toggle("interactive", this.interactive);
    this.#drawEdges(frame);

    for (const [slotKey, slot] of this.slots) {
      if (!positions.has(slotKey)) {
        slot.remove();
        this.slots.delete(slotKey);
      }
    }

    let flipping = 0;
    const hintByKey = new Map((view.hint ?? []).map((h, index) => [key(h.row, h.col), { ...h, rank: index + 1 }]));
    const markerByKey = new Map(markers.map((m) => [key(m.row, m.col), m]));
    const card = view.card ? cardName(view.card) : "";

    // Every slot in its new place before any card is measured (a card flying in measures where it lands).
    for (const [slotKey, slot] of this.slots) {
      const [row, col] = /** @type {[number, number]} */ (positions.get(slotKey)); // the others are gone
      slot.style.gridRow = String(row - minRow + 1);
      slot.style.gridColumn = String(col - minCol + 2);
    }

    for (const [slotKey, [row, col]] of positions) {
      let slot = this.slots.get(slotKey);
      if (!slot) {
        slot = el("div", { class: "slot", "data-key": slotKey, "data-row": row, "data-col": col });
        this.element.append(slot);
        this.slots.set(slotKey, slot);
      }
      const name = this.cellName(row, col);
      slot.dataset.cell = name;
      slot.style.gridRow = String(row - minRow + 1);
      slot.style.gridColumn = String(col - minCol + 2); // the first column holds the row numbers
      const cell = byKey.get(slotKey);
      const isLegal = legalKeys.has(slotKey);

      const justPlaced = Boolean(view.placed && view.placed.row === row && view.placed.col === col);
      flipping += this.#drawPile(slot, cell, justPlaced ? (view.flyFrom ?? true) : null);

      slot.classList.toggle("occupied", Boolean(cell));
      slot.classList.toggle("legal", isLegal);
      this.#label(slot, name, cell, isLegal, card);
      this.#drawHint(slot, isLegal ? hintByKey.get(slotKey) : undefined);
      this.#drawMarker(slot, markerByKey.get(slotKey));
    }
    this.#updateRovingFocus();
    if (before) this.#glide(before);
    return flipping;
  }

  /**
   * Whether the drawn box changes with `frame` (so the cells already on screen would jump).
   * @param {Frame} frame
   */
  #frameMoved(frame) {
    const old = this.frame;
    if (!old || this.slots.size === 0) return false;
    return old.minRow !== frame.minRow || old.maxRow !== frame.maxRow || old.minCol !== frame.minCol || old.maxCol !== frame.maxCol;
  }

  /**
   * The column letters below the grid and the row numbers on its left, for the columns and rows drawn.
   * @param {Frame} frame
   */
  #drawEdges(frame) {
    const wanted = new Map();
    for (let col = frame.minCol; col <= frame.maxCol; col += 1) {
      wanted.set(`col,${col}`, { text: this.columnName(col), row: frame.maxRow - frame.minRow + 2, column: col - frame.minCol + 2 });
    }
    for (let row = frame.minRow; row <= frame.maxRow; row += 1) {
      wanted.set(`row,${row}`, { text: this.rowName(row), row: row - frame.minRow + 1, column: 1 });
    }
    for (const [edgeKey, label] of this.edges) {
      if (!wanted.has(edgeKey)) {
        label.remove();
        this.edges.delete(edgeKey);
      }
    }
    for (const [edgeKey, { text, row, column }] of wanted) {
      let label = this.edges.get(edgeKey);
      if (!label) {
        const kind = edgeKey.startsWith("col") ? "edge-column" : "edge-row";
        label = el("span", { class: `edge ${kind}`, "aria-hidden": "true" });
        this.element.append(label);
        this.edges.set(edgeKey, label);
      }
      label.textContent = text;
      label.dataset.edge = text;
      label.style.gridRow = String(row);
      label.style.gridColumn = String(column);
    }
  }

  /**
   * The box moved: show every cell and edge label where it was, then let it glide to where it now is, so
   * the player sees the board re-centre rather than jump (not with reduced motion, nor for a card flying in).
   * @param {Map<HTMLElement, DOMRect>} before
   */
  #glide(before) {
    if (flipDuration() === 0) return;
    /** @type {HTMLElement[]} */
    const shifting = [];
    for (const [element, from] of before) {
      if (!element.isConnected || element.querySelector(".card.flying")) continue;
      const to = element.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) continue;
      element.style.transition = "none";
      element.style.transform = `translate(${dx}px, ${dy}px)`;
      shifting.push(element);
    }
    if (shifting.length === 0) return;
    void this.element.offsetWidth;
    this.element.classList.add("recentring");
    this.element.dataset.recentred = String(Number(this.element.dataset.recentred ?? 0) + 1);
    for (const element of shifting) {
      element.style.transition = `transform ${SHIFT_MS}ms cubic-bezier(0.25, 0.8, 0.35, 1)`;
      element.style.transform = "";
    }
    clearTimeout(this.shiftTimer);
    this.shiftTimer = setTimeout(() => {
      this.element.classList.remove("recentring");
      for (const element of shifting) element.style.transition = "";
    }, SHIFT_MS + 30);
  }

  /**
   * The slot's role and accessible name, which starts with the cell's name: a cell to place `card` on, a pile, or nothing.
   * @param {HTMLElement} slot
   * @param {string} name the cell's
   * @param {Cell | undefined} cell
   * @param {boolean} isLegal
   * @param {string} card
   */
  #label(slot, name, cell, isLegal, card) {
    if (isLegal) {
      slot.setAttribute("role", "button");
      const pile = cell ? t("card.pile", { count: cell.height }) : "";
      slot.setAttribute(
        "aria-label",
        cell
          ? t("board.cellPile", { card, cell: name, top: cardName(cell.card), pile })
          : t("board.cellEmpty", { card, cell: name }),
      );
    } else if (cell) {
      slot.setAttribute("role", "group");
      slot.setAttribute(
        "aria-label",
        cell.height > 1
          ? t("board.positionPile", { cell: name, pile: t("card.pile", { count: cell.height }) })
          : t("board.position", { cell: name }),
      );
      slot.removeAttribute("tabindex");
    } else {
      slot.removeAttribute("role");
      slot.removeAttribute("aria-label");
      slot.removeAttribute("tabindex");
    }
  }

  /**
   * The hint's rank on a legal slot (the best one with its label), or none.
   * @param {HTMLElement} slot
   * @param {RankedHint | undefined} hint
   */
  #drawHint(slot, hint) {
    slot.classList.remove("hint-1", "hint-2", "hint-3");
    let badge = slot.querySelector(":scope > .hint-badge");
    if (!hint) {
      badge?.remove();
      return;
    }
    slot.classList.add(`hint-${hint.rank}`);
    if (!badge) {
      badge = el("span", { class: "hint-badge", "aria-hidden": "true" });
      slot.append(badge);
    }
    badge.textContent = hint.rank === 1 ? hint.label : integer(hint.rank);
    // The cell's name (set just before by #label) says what its badge shows, as a name must hold its visible text.
    slot.setAttribute("aria-label", `${slot.getAttribute("aria-label") ?? ""}, ${badge.textContent}`);
  }

  /**
   * A replay marker (the card placed, the cell played, the best cell) with its tag, or none.
   * @param {HTMLElement} slot
   * @param {Marker | undefined} marker
   */
  #drawMarker(slot, marker) {
    slot.classList.remove("marker-placed", "marker-best", "marker-played");
    let tag = slot.querySelector(":scope > .marker-tag");
    if (marker) slot.classList.add(`marker-${marker.kind}`);
    if (!marker?.label) {
      tag?.remove();
      return;
    }
    if (!tag) {
      tag = el("span", { class: "marker-tag" });
      slot.append(tag);
    }
    tag.textContent = marker.label;
  }

  /** @param {HTMLElement | null | undefined} slot */
  #preview(slot) {
    const current = this.element.querySelector(".card.preview");
    if (current && current.parentElement === slot) return;
    if (current) current.remove();
    if (!slot || !this.card || !this.interactive || !this.canHover.matches) return;
    if (slot.dataset.key === this.quietKey) return;
    const ghost = createCard(this.card, true);
    ghost.classList.add("preview");
    ghost.removeAttribute("role");
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    slot.append(ghost);
  }

  /** A short wave over the cards (after a win). */
  stopCelebrating() {
    clearTimeout(this.celebrateTimer);
    this.element.classList.remove("celebrate");
  }

  celebrate() {
    /** @type {NodeListOf<HTMLElement>} */
    const occupied = this.element.querySelectorAll(".slot.occupied");
    const slots = [...occupied];
    slots.forEach((slot, index) => slot.style.setProperty("--i", String(index)));
    this.element.classList.remove("celebrate");
    void this.element.offsetWidth;
    this.element.classList.add("celebrate");
    clearTimeout(this.celebrateTimer);
    this.celebrateTimer = setTimeout(() => this.element.classList.remove("celebrate"), 2600);
  }

  /**
   * Draw a pile; `placed` is null, true (just placed: a small drop) or the rect to fly the card in from.
   * @param {HTMLElement} slot
   * @param {Cell | undefined} cell
   * @param {DOMRect | true | null} placed
   */
  #drawPile(slot, cell, placed) {
    /** @type {HTMLElement | null} */
    let pile = slot.querySelector(":scope > .pile");
    if (!cell) {
      if (pile) pile.remove();
      return 0;
    }
    let flipped = 0;
    if (!pile) {
      pile = el("div", { class: "pile" }, createCard(cell.card, cell.face_up), el("span", { class: "pile-badge", "aria-hidden": "true" }));
      slot.prepend(pile);
    } else {
      const card = /** @type {HTMLElement} */ (pile.querySelector(".card"));
      if (setCard(card, cell.card, cell.face_up, true)) flipped = 1;
    }
    pile.dataset.height = String(cell.height);
    pile.dataset.cell = slot.dataset.cell;
    const badge = /** @type {HTMLElement} */ (pile.querySelector(".pile-badge"));
    badge.textContent = cell.height > 1 ? t("card.pileBadge", { count: cell.height }) : "";
    const card = /** @type {HTMLElement} */ (pile.querySelector(".card")); // a pile always has its card
    if (placed && typeof placed === "object" && flipDuration() > 0) flyIn(card, placed);
    else if (placed) {
      card.classList.remove("dealt");
      void card.offsetWidth;
      card.classList.add("dealt");
    }
    return flipped;
  }

  #updateRovingFocus() {
    const keys = this.legal.map((cell) => cell.key);
    if (this.focusKey === null || !keys.includes(this.focusKey)) this.focusKey = this.#nearestLegal(this.focusKey);
    for (const cell of this.legal) {
      const slot = this.#legalSlot(cell.key);
      slot.tabIndex = cell.key === this.focusKey ? 0 : -1;
    }
  }

  /**
   * The slot of a legal cell (render gives every legal cell one).
   * @param {string} slotKey
   */
  #legalSlot(slotKey) {
    return /** @type {HTMLElement} */ (this.slots.get(slotKey));
  }

  /**
   * @param {string | null} fromKey
   * @returns {string | null}
   */
  #nearestLegal(fromKey) {
    if (this.legal.length === 0) return null;
    if (!fromKey) return this.legal[0].key;
    const [r0, c0] = fromKey.split(",").map(Number);
    let best = this.legal[0];
    let bestDistance = Infinity;
    for (const cell of this.legal) {
      const distance = Math.abs(cell.row - r0) + Math.abs(cell.col - c0);
      if (distance < bestDistance) {
        best = cell;
        bestDistance = distance;
      }
    }
    return best.key;
  }

  /** @param {string} slotKey */
  #setFocusKey(slotKey) {
    this.focusKey = slotKey;
    for (const cell of this.legal) this.#legalSlot(cell.key).tabIndex = cell.key === slotKey ? 0 : -1;
  }

  /** Whether keyboard focus is on the grid (so it can be kept there after a move). */
  hasFocus() {
    return this.element.contains(document.activeElement);
  }

  /**
   * Move keyboard focus to the current legal cell (or the grid itself when there is none).
   * @param {{scroll?: boolean}} [options]
   */
  focus({ scroll = false } = {}) {
    const slot = this.focusKey ? this.slots.get(this.focusKey) : null;
    (slot ?? this.element).focus({ preventScroll: !scroll });
  }

  /**
   * The legal slot under a viewport point (for drag and drop), or null.
   * @param {number} x
   * @param {number} y
   */
  legalSlotAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    /** @type {HTMLElement | null | undefined} */
    const slot = hit?.closest?.(".slot.legal");
    return slot && this.element.contains(slot) ? slot : null;
  }

  /**
   * @param {number} row
   * @param {number} col
   */
  slotFor(row, col) {
    return this.slots.get(key(row, col)) ?? null;
  }

  /** @param {MouseEvent} event */
  #onClick(event) {
    if (!this.interactive) return;
    /** @type {HTMLElement | null} */
    const slot = /** @type {Element} */ (event.target).closest(".slot.legal");
    if (!slot || !this.element.contains(slot)) return;
    this.#setFocusKey(/** @type {string} */ (slot.dataset.key));
    this.onPlace(Number(slot.dataset.row), Number(slot.dataset.col));
  }

  /** @param {KeyboardEvent} event */
  #onKey(event) {
    if (!this.interactive || this.legal.length === 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = ARROWS[event.key];
    if (step) {
      event.preventDefault();
      const next = this.#neighbour(this.focusKey, step);
      if (next) {
        this.#setFocusKey(next);
        this.#legalSlot(next).focus();
      } else if (!this.element.contains(document.activeElement) || document.activeElement === this.element) {
        this.focus();
      }
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      const slot = legalSlotOf(event);
      if (!slot) return;
      event.preventDefault();
      if (event.repeat) return;
      this.onPlace(Number(slot.dataset.row), Number(slot.dataset.col));
    }
  }

  /**
   * The legal cell nearest to `fromKey` in the direction of `step` (straight lines preferred).
   * @param {string | null} fromKey
   * @param {[number, number]} step
   * @returns {string | null}
   */
  #neighbour(fromKey, [dr, dc]) {
    if (!fromKey) return this.legal[0]?.key ?? null;
    const [r0, c0] = fromKey.split(",").map(Number);
    let best = null;
    let bestScore = Infinity;
    for (const cell of this.legal) {
      const along = (cell.row - r0) * dr + (cell.col - c0) * dc;
      if (along <= 0) continue;
      const across = Math.abs((cell.row - r0) * dc) + Math.abs((cell.col - c0) * dr);
      const score = along + across * 2.5;
      if (score < bestScore) {
        best = cell.key;
        bestScore = score;
      }
    }
    return best;
  }
}
