/**
 * What `scripts/eval-search.ts --rankings` writes per query and scripts/eval-fusion.ts reads: the
 * candidates hybrid search fused (by external id), so that fusions can be measured without the
 * model or a database.
 */
import type { JudgedKind } from "./eval-kinds.ts";

export interface RecordedQuery {
  q: string;
  kind: JudgedKind;
  /** External ids of the relevant events. */
  relevant: string[];
  /** The page each mode answered (text, semantic, hybrid). */
  pages: Record<string, string[]>;
  /** Hybrid's text candidates, best first. */
  text: { id: string; score: number; everyWord: boolean; coverage: number; known: number }[];
  /** Hybrid's semantic candidates (cosine similarity), best first. */
  semantic: { id: string; score: number }[];
  /** With --expansions: hybrid's semantic candidates for each expansion of the query. */
  expanded: Record<string, { id: string; score: number }[]>;
}

export interface RecordedCorpus {
  queries: RecordedQuery[];
}
