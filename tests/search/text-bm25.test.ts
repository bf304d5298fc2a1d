/**
 * Text ranking skips the tiers' walks when the page's last match of the rarest words outscores
 * whatever an event without those words could score (server/db/text-bm25.ts). That is only the
 * same page if the bound holds for every event: checked here for any words, rarities, lengths and
 * term frequencies, with and without the every-word boost.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { bestScoreWithout, type Candidate, rankedByScore } from "../../server/db/text-bm25.ts";
import { TEXT_RANK } from "../../server/db/text-matches.ts";
import type { RankWord, TextQuery } from "../../server/db/text-query.ts";

const word = (i: number, idf: number): RankWord => ({
  word: `'w${i}'`,
  idf,
  meaningful: true,
  docs: 10 + i,
});

Deno.test("no event without the rare words scores as much as their bound", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0.01, max: 15, noNaN: true }), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 0, max: 9 }),
      fc.boolean(),
      fc.double({ min: 1, max: 300, noNaN: true }),
      fc.array(
        fc.record({
          tfs: fc.array(fc.double({ min: 0, max: 40, noNaN: true }), {
            minLength: 10,
            maxLength: 10,
          }),
          length: fc.integer({ min: 1, max: 2_000 }),
          every: fc.boolean(),
        }),
        { minLength: 1, maxLength: 20 },
      ),
      (idfs, rareCount, rareInTier, meanLength, parts) => {
        const words = idfs.map((idf, i) => word(i, idf));
        const rare = words.slice(0, Math.min(rareCount, words.length - 1));
        // The every-word tier holds the rare words, or (when they are past its six) not.
        const tierWords = rareInTier ? words : words.slice(rare.length);
        const text: TextQuery = {
          tiers: [tierWords.map((w) => w.word).join(" & ")],
          words,
          anyWord: null,
          meanLength,
          counted: null,
        };
        const boostable = !rareInTier || rare.length === 0;
        const candidates: Candidate[] = parts.map((p, i) => ({
          id: `00000000-0000-0000-0000-${String(i).padStart(12, "0")}`,
          starts_at: new Date(0),
          // Without the rare words: their term frequencies are 0.
          tfs: words.map((_, w) => (w < rare.length ? 0 : p.tfs[w])),
          length: p.length,
          every: p.every && boostable,
        }));
        const bound = bestScoreWithout(rare, { text, settings: TEXT_RANK });
        const scored = rankedByScore(candidates, { text, settings: TEXT_RANK, limit: 100 });
        for (const match of scored) assert.ok(match.score < bound, `${match.score} >= ${bound}`);
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("the bound is tight enough to stop: one saturated word scores near it", () => {
  const words = [word(0, 8), word(1, 1.5)];
  const text: TextQuery = {
    tiers: ["'w0' & 'w1'"],
    words,
    anyWord: null,
    meanLength: 50,
    counted: null,
  };
  const bound = bestScoreWithout([words[0]], { text, settings: TEXT_RANK });
  // Without w0 no event matches every word: no boost, only w1 at saturation.
  assert.ok(Math.abs(bound - 1.5 * (TEXT_RANK.k1 + 1)) < 1e-6);
  const [best] = rankedByScore([{
    id: "00000000-0000-0000-0000-000000000001",
    starts_at: new Date(0),
    tfs: [0, 1_000],
    length: 1,
    every: false,
  }], { text, settings: TEXT_RANK, limit: 1 });
  assert.ok(best.score < bound && best.score > 0.99 * bound);
});
