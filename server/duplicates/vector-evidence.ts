/**
 * Vectors as evidence for detection: listings in AI search (a trusted key's, embedded from their
 * current content) whose vectors are close are candidates even when their titles share no word,
 * and the matcher reads how close (matcher.ts, VECTOR_SAME). Untrusted keys' listings have no
 * vectors (they never bring content into AI search), so this finds nothing for them.
 */
import type { Sql } from "postgres";
import type { MatchRow } from "../db/match-keys.ts";
import { vectorCandidates } from "../db/vector-candidates.ts";
import type { MatchFacts } from "./match-facts.ts";
import { candidateBounds } from "./lookup-keys.ts";
import { VECTOR_SAME } from "./matcher.ts";
import { SAME_DAY_MS } from "./title-likeness.ts";

/** Vectors less alike than this cannot change the matcher's verdict: they are not read. */
export const VECTOR_CANDIDATE = VECTOR_SAME;
// A listing with more close vectors in its window is one of a series' many near-identical
// listings: the matcher decides among the closest.
const PER_PROBE = 10;

/** A written listing that may have a vector. */
export interface VectorProbeSource {
  facts: MatchFacts;
  contributorId: string;
  platform: string;
}

/** Candidates of `written` by their vectors, with each pair's similarity. */
export async function findVectorCandidates(
  sql: Sql,
  written: VectorProbeSource[],
): Promise<{ probe: string; candidate: MatchRow; similarity: number }[]> {
  return await vectorCandidates(sql, {
    probes: written.map((w) => {
      // The matcher reads vectors only for listings starting the same day: a few per probe even
      // in a busy calendar, where the keys' window would be days of listings.
      const start = w.facts.start;
      return {
        id: w.facts.id,
        contributorId: w.contributorId,
        platform: w.platform,
        from: new Date(start - SAME_DAY_MS),
        to: new Date(start + SAME_DAY_MS),
        latitudes: candidateBounds(w.facts).latitudes,
      };
    }),
    minSimilarity: VECTOR_CANDIDATE,
    perProbe: PER_PROBE,
  });
}
