/** Words of a search that ask for open calls for papers become cfp=open (server/search/cfp-words.ts). */
import assert from "node:assert/strict";
import { readCfpWords } from "../../server/search/cfp-words.ts";

Deno.test("open cfp, call for papers and call for speakers read as cfp=open, the rest stays words", () => {
  for (
    const [q, rest] of [
      ["rust open cfp", "rust"],
      ["Call for Papers kubernetes Berlin", "kubernetes Berlin"],
      ["python call for speakers", "python"],
      ["calls for papers on rust", "on rust"],
      ["open CFPs for go", "for go"],
    ]
  ) {
    const read = readCfpWords(q, {});
    assert.deepEqual(read, { q: rest, filters: { cfp: "open" }, interpreted: { cfp: "open" } }, q);
  }
});

Deno.test("an explicit cfp wins, and a query of CFP words alone leaves no words", () => {
  assert.equal(readCfpWords("rust call for papers", { cfp: "any" }), null);
  for (const q of ["call for papers", "open cfp !", "CFP"]) {
    assert.deepEqual(readCfpWords(q, {}), {
      q: "",
      filters: { cfp: "open" },
      interpreted: { cfp: "open" },
    }, q);
  }
  assert.equal(readCfpWords("rust meetup", {}), null);
  assert.equal(readCfpWords("paper craft workshop", {}), null);
});
