import assert from "node:assert/strict";
import { fuseRankings, RRF_K } from "../../server/search/fuse-rankings.ts";
import { fuseHybrid, HYBRID_FUSION } from "../../server/search/hybrid-fusion.ts";

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

Deno.test("hybrid fusion: a literal match leads, a weak partial one yields to meaning", () => {
  const text = (id: string, everyWord: boolean, coverage: number) => ({
    id,
    score: 1,
    everyWord,
    coverage,
    known: 1,
  });
  const semantic = [{ id: "near", score: 0.6 }, { id: "noise", score: 0.1 }];
  // Every word matched: above the semantic ranking's first.
  const literal = fuseHybrid([text("literal", true, 1)], semantic);
  assert.equal(literal[0].id, "literal");
  // A partial match holding a small share of the query's words: below it.
  const weak = fuseHybrid([text("weak", false, 0.1)], semantic);
  assert.deepEqual(weak.map((f) => f.id), ["near", "weak"], "below the floor is left out");
  // Holding most of the words (by idf): above it again.
  assert.equal(fuseHybrid([text("strong", false, 0.8)], semantic)[0].id, "strong");
  // Without weighing by coverage every partial match weighs the same.
  const flat = { ...HYBRID_FUSION, byCoverage: false, partial: 0.5 };
  assert.equal(fuseHybrid([text("strong", false, 0.8)], semantic, flat)[0].id, "near");
});

Deno.test("hybrid fusion: when no text match holds half the query, meaning outranks partial matches", () => {
  const text = (id: string, coverage: number) => ({
    id,
    score: 1,
    everyWord: false,
    coverage,
    known: 1,
  });
  const semantic = [{ id: "s1", score: 0.6 }, { id: "s2", score: 0.55 }, { id: "s3", score: 0.5 }];
  // A paraphrase against short texts: the best text match holds 42% of the query's words. Its
  // weight (0.5 + 2.5 x 0.42 = 1.55) would put it above the semantic ranking's first; with the
  // share squared (0.5 + 2.5 x 0.18 = 0.94) the semantic ranking leads.
  const paraphrase = fuseHybrid([text("t1", 0.42), text("t2", 0.4)], semantic);
  assert.deepEqual(paraphrase.map((f) => f.id).slice(0, 3), ["s1", "s2", "t1"]);
  const unsquared = { ...HYBRID_FUSION, weakTextBelow: undefined };
  assert.equal(fuseHybrid([text("t1", 0.42), text("t2", 0.4)], semantic, unsquared)[0].id, "t1");
  // One match holding most of the query's words is evidence that text answers this query: every
  // partial match keeps its unsquared weight.
  const strong = fuseHybrid([text("t1", 0.8), text("t2", 0.45)], semantic);
  assert.deepEqual(strong.map((f) => f.id).slice(0, 3), ["t1", "t2", "s1"]);
});

Deno.test("hybrid fusion: holding every word the store knows is partial when the query says more", () => {
  const semantic = [{ id: "s1", score: 0.6 }, { id: "s2", score: 0.55 }, { id: "s3", score: 0.5 }];
  // A paraphrase against conference names: one of its words is held by some events, the others
  // by none, and they hold three quarters of the query's idf. An event holding the one holds
  // every word some event holds, but a quarter of the query.
  const match = { id: "t1", score: 1, everyWord: true, coverage: 1, known: 0.25 };
  const fused = fuseHybrid([match], semantic);
  assert.deepEqual(fused.map((f) => f.id), ["s1", "s2", "s3", "t1"]);
  // Judged against the known words only, it would lead as a literal match does.
  const knownOnly = { ...HYBRID_FUSION, wholeQuery: false };
  assert.equal(fuseHybrid([match], semantic, knownOnly)[0].id, "t1");
  // Every word known: a literal match leads as before.
  assert.equal(fuseHybrid([{ ...match, known: 1 }], semantic)[0].id, "t1");
});
