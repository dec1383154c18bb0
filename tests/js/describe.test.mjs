// The page's sentences about a move (src/foursquare/web/static/describe.js) in English, from the catalogue's own
// words (the template, src/foursquare/locale/foursquare.pot, whose msgids are the English): what a placement
// turned and why, line by line, and what undo and redo took back or put again. i18n.js asks the server for its
// catalogue and reads the browser's language: here a stub fetch answers with the template's messages.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const STATIC = new URL("../../src/foursquare/web/static/", import.meta.url);
const TEMPLATE = new URL("../../src/foursquare/locale/foursquare.pot", import.meta.url);

/** The template's messages by key (msgctxt): the msgid, or {one, other} for a plural. */
function englishMessages() {
  /** @type {Record<string, string | {one: string, other: string}>} */
  const messages = {};
  for (const entry of readFileSync(TEMPLATE, "utf8").split(/\n\s*\n/)) {
    /** @type {Record<string, string>} */
    const fields = {};
    let field = "";
    for (const line of entry.split("\n")) {
      const start = line.match(/^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$/);
      if (start) [, field] = start;
      const quoted = start ? start[2] : line.startsWith('"') ? line : null;
      if (quoted !== null && field) fields[field] = (fields[field] ?? "") + JSON.parse(quoted);
    }
    if (fields.msgctxt === undefined) continue;
    messages[fields.msgctxt] =
      fields.msgid_plural === undefined ? fields.msgid : { one: fields.msgid, other: fields.msgid_plural };
  }
  return messages;
}

const catalogue = {
  code: "en",
  name: "English",
  locale: "en",
  direction: "ltr",
  plural_categories: ["one", "other"],
  messages: englishMessages(),
};
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {}, querySelector: () => null };
globalThis.window = { addEventListener: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en-GB"] }, configurable: true });
globalThis.fetch = async (url) => ({
  ok: true,
  json: async () => (url === "/api/languages" ? { languages: [{ code: "en", name: "English" }] } : catalogue),
});

const { setupLanguage } = await import(new URL("i18n.js", STATIC).href);
const { flipSentence, placedSentence, takenBackSentence } = await import(new URL("describe.js", STATIC).href);
await setupLanguage(async () => {});

test("a placement that turns a card says which, where and why", () => {
  const placed = { row: 0, col: 1, cell: "E4", card: "AH" };
  const flips = [{ row: 0, col: 0, cell: "D4", card: "3S", face_up: false, line: "row", reason: "lowest" }];
  assert.equal(
    placedSentence(placed, flips),
    "A♥ placed at E4. Row: A♥ is lower than every other face-up card, so 3♠ on D4 turned face down.",
  );
});

test("a placement that turns nothing is one sentence", () => {
  assert.equal(placedSentence({ row: 0, col: 0, cell: "D4", card: "10C" }, []), "10♣ placed at D4.");
});

test("a row and a column each get their sentence, rows first, the cards of each listed", () => {
  const flips = [
    { row: 1, col: 0, cell: "D5", card: "2D", face_up: true, line: "column", reason: "none_face_up" },
    { row: 0, col: 1, cell: "E4", card: "5C", face_up: false, line: "row", reason: "highest" },
    { row: 0, col: 2, cell: "F4", card: "6H", face_up: false, line: "row", reason: "highest" },
  ];
  const sentence = flipSentence(flips, "9S");
  const row = sentence.indexOf("Row:");
  const column = sentence.indexOf("Column:");
  assert.ok(row === 0 && column > row, sentence);
  assert.match(sentence, /5♣ on E4 and 6♥ on F4 turned face down/);
  assert.match(sentence, /2♦ on D5 turned face up/);
});

test("undo names the card taken back from the pile whose height fell, redo the one put back", () => {
  const before = { cells: [{ row: 0, col: 0, cell: "D4", card: "7C", height: 2 }] };
  const after = { cells: [{ row: 0, col: 0, cell: "D4", card: "3S", height: 1 }] };
  const undone = takenBackSentence("undo", before, after);
  const redone = takenBackSentence("redo", after, before);
  assert.ok(undone.includes("7♣") && undone.includes("D4"), undone);
  assert.ok(redone.includes("7♣") && redone.includes("D4"), redone);
  assert.notEqual(undone, redone);
  assert.equal(takenBackSentence("undo", before, before), ""); // no pile changed: nothing to say
});
