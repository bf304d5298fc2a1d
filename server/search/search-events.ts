/** The three search modes over one set of filters: text, semantic, and a fusion of both. */
import type { Sql } from "postgres";
import type { EventFilters } from "../db/event-reads.ts";
import { rankByText, rankByVector, type RankedEvent } from "../db/event-search.ts";
import { EmbeddingProviderError } from "../embeddings/provider.ts";
import { AppError } from "../errors.ts";
import type { AiSearch } from "./ai-search.ts";
import { fuseRankings } from "./fuse-rankings.ts";

export const SEARCH_MODES = ["text", "semantic", "hybrid"] as const;
export type SearchMode = typeof SEARCH_MODES[number];

export interface SearchRequest {
  q: string;
  mode: SearchMode;
  filters: Omit<EventFilters, "q">;
  limit: number;
}

export interface SearchHit extends RankedEvent {
  /** Hybrid only: where each ranking placed the event (null: not among its candidates). */
  ranks?: { text: number | null; semantic: number | null };
}

export interface SearchResult {
  hits: SearchHit[];
  /** Set when hybrid search fell back to text alone, saying why. */
  degraded?: string;
}

/** How many candidates each ranking contributes to a hybrid search. */
const HYBRID_CANDIDATES = 100;

/** Runs a search. Semantic search without a usable vector store is a 503 that says why. */
export async function searchEvents(
  sql: Sql,
  ai: AiSearch,
  request: SearchRequest,
): Promise<SearchResult> {
  const { q, filters, limit } = request;
  if (request.mode === "text") return { hits: await rankByText(sql, q, filters, limit) };
  if (request.mode === "semantic") {
    const vectorQuery = await vectorQueryOrThrow(ai, q);
    return { hits: await rankByVector(sql, vectorQuery, filters, limit) };
  }
  const pool = Math.max(HYBRID_CANDIDATES, limit);
  const textHits = await rankByText(sql, q, filters, pool);
  let vectorHits: RankedEvent[];
  try {
    vectorHits = await rankByVector(sql, await vectorQueryOrThrow(ai, q), filters, pool);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return {
      hits: textHits.slice(0, limit).map((h, i) => ({
        ...h,
        ranks: { text: i + 1, semantic: null },
      })),
      degraded: `${err.message} These results are from text search alone.`,
    };
  }
  const fused = fuseRankings<RankedEvent>([
    { name: "text", items: textHits },
    { name: "semantic", items: vectorHits },
  ], (hit) => hit.event.id);
  return {
    hits: fused.slice(0, limit).map((f) => ({
      event: f.item.event,
      score: f.score,
      ranks: { text: f.ranks.text, semantic: f.ranks.semantic },
    })),
  };
}

/** The query's vector and the store's settings, or a 503 explaining what is missing. */
async function vectorQueryOrThrow(ai: AiSearch, q: string) {
  const status = await ai.availability.status();
  if (!status.available) {
    throw new AppError("service_unavailable", `AI search is unavailable: ${status.reason}.`);
  }
  try {
    const vector = await ai.embedQuery(q);
    return { vector, model: status.model, iterativeScan: status.iterativeScan };
  } catch (err) {
    if (!(err instanceof EmbeddingProviderError)) throw err;
    const retryAfterSeconds = err.retryAfterMs === undefined
      ? undefined
      : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    throw new AppError(
      "service_unavailable",
      `AI search is unavailable: the embedding provider failed (${err.message}).`,
      { retryAfterSeconds },
    );
  }
}
