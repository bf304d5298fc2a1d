import assert from "node:assert/strict";
import { fuseRankings, RRF_K } from "../../server/search/fuse-rankings.ts";

const id = (x: string) => x;

Deno.test("an item both rankings place high beats one only a single ranking places first", () => {
  const fused = fuseRankings([
    { name: "text", items: ["a", "b", "c"] },
    { name: "semantic", items: ["d", "b", "e"] },
  ], id);
  // Ties keep the order of first appearance.
  assert.deepEqual(fused.map((f) => f.item), ["b", "a", "d", "c", "e"]);
  assert.deepEqual(fused[0].ranks, { text: 2, semantic: 2 });
  assert.deepEqual(fused[2].ranks, { text: null, semantic: 1 });
  assert.equal(fused[0].score, 2 / (RRF_K + 2));
});

Deno.test("fusion with one empty ranking keeps the other's order", () => {
  const fused = fuseRankings([
    { name: "text", items: ["x", "y", "z"] },
    { name: "semantic", items: [] },
  ], id);
  assert.deepEqual(fused.map((f) => f.item), ["x", "y", "z"]);
});

Deno.test("a ranking's weight scales its contribution", () => {
  // Unweighted, "b" wins (ranks 2 and 1 beat 1 and 3); three times the text ranking's weight
  // puts its first item, "a", on top.
  const rankings = (weight?: number) => [
    { name: "text", items: ["a", "b", "c"], weight },
    { name: "semantic", items: ["b", "c", "a"] },
  ];
  assert.deepEqual(fuseRankings(rankings(), id).map((f) => f.item), ["b", "a", "c"]);
  const weighted = fuseRankings(rankings(3), id);
  assert.deepEqual(weighted.map((f) => f.item), ["a", "b", "c"]);
  assert.equal(weighted[0].score, 3 / (RRF_K + 1) + 1 / (RRF_K + 3));
});

Deno.test("an item's own weight lifts it above items the other ranking places first", () => {
  // As hybrid search weighs events matching every word: "x" and "y" are such matches.
  const fused = fuseRankings([
    { name: "text", items: ["x", "y", "z"], weight: (item) => (item === "z" ? 1 : 2) },
    { name: "semantic", items: ["p", "q", "r"] },
  ], id);
  assert.deepEqual(fused.map((f) => f.item).slice(0, 3), ["x", "y", "p"]);
  assert.equal(fused[0].score, 2 / (RRF_K + 1));
});
