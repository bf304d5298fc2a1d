/**
 * The one-pass reading of ASCII titles (normalise-title-tokens.ts) against the patterns it
 * replaces: any title, the same words.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { asciiTitleTokens } from "../../server/duplicates/normalise-title-tokens.ts";
import { foldText, titleParts } from "../../server/duplicates/normalise-title.ts";

/** The words as the patterns give them: years split off, "#42" as "n42", folded, split. */
function patternTokens(title: string): string[] {
  const joined = title.replace(/([A-Za-z])((19|20)\d\d)\b/g, "$1 $2").replace(
    /#\s*(\d+)/g,
    " n$1 ",
  );
  return foldText(joined).split(" ").filter((w) => w.length > 0);
}

// Pieces that meet the patterns' edges: letters before years, numbers after "#" and spaces,
// signs spelt out, word characters after a year (no split), control characters.
const PIECES = [
  "a",
  "Z",
  "PyCon",
  "conf",
  "1",
  "9",
  "0",
  "2",
  "19",
  "20",
  "2025",
  "1999",
  "#",
  " ",
  "  ",
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  "&",
  "+",
  "_",
  "-",
  "'",
  ".",
  "(",
  ")",
  "|",
  "\u0000",
  "\u007f",
];

Deno.test("an ASCII title is read into the words the patterns give", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (pieces) => {
      const title = pieces.join("");
      assert.deepEqual(asciiTitleTokens(title), patternTokens(title), JSON.stringify(title));
    }),
    { numRuns: 20_000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary-ascii", maxLength: 40 }), (title) => {
      assert.deepEqual(asciiTitleTokens(title), patternTokens(title), JSON.stringify(title));
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("a title beyond ASCII is left to the patterns, and read the same", () => {
  assert.equal(asciiTitleTokens("Café Conférence 2031"), null);
  assert.equal(asciiTitleTokens("Testμ Conf"), null);
  assert.deepEqual(titleParts("Café Conférence 2031").words, ["cafe"]);
  assert.deepEqual(titleParts("München Rust#4").words, ["munchen", "rust", "n4"]);
});

Deno.test("the words of known titles", () => {
  assert.deepEqual(asciiTitleTokens("RustConf2025 - Portland"), ["rustconf", "2025", "portland"]);
  assert.deepEqual(asciiTitleTokens("C++ & Rust Meetup # 42"), [
    "c",
    "plus",
    "plus",
    "and",
    "rust",
    "meetup",
    "n42",
  ]);
  assert.deepEqual(asciiTitleTokens("ab2020x a2025_b"), ["ab2020x", "a2025", "b"]);
  assert.deepEqual(asciiTitleTokens(""), []);
});
