/** The three search modes over one set of filters: text, semantic, and a fusion of both. */
import type { Sql } from "postgres";
import type { EventFilters } from "../db/event-filters.ts";
import { type Match, type TextMatch, textMatches } from "../db/text-matches.ts";
import { vectorMatches } from "../db/vector-matches.ts";
import { rankByText, rankByVector, type RankedEvent, withEvents } from "./ranked-events.ts";
import { EmbeddingProviderError } from "../embeddings/provider.ts";
import { AppError } from "../errors.ts";
import type { AiSearch } from "../embeddings/ai-search.ts";
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

/**
 * Candidates each ranking contributes to a hybrid search, as a multiple of the page: fusion only
 * reorders the best of each, and smaller pools keep both rankings cheap (the vector index's
 * search width follows its pool).
 */
const HYBRID_POOL_PER_RESULT = 2;
const HYBRID_MIN_POOL = 40;

/**
 * An event matching every word of the query counts this much more in hybrid fusion than one
 * matching some of them: a literal match is strong evidence, and without the boost a topic with
 * few events (all found by text) loses places to merely similar events.
 */
const EVERY_WORD_WEIGHT = 2;

/** Runs a search. Semantic search without a usable vector store is a 503 that says why. */
export async function searchEvents(
  sql: Sql,
  ai: AiSearch,
  request: SearchRequest,
): Promise<SearchResult> {
  const { q, filters, limit } = request;
  if (request.mode === "text") {
    return { hits: await rankByText(sql, q, filters, limit) };
  }
  if (request.mode === "semantic") {
    const vectorQuery = await vectorQueryOrThrow(ai, q);
    return { hits: await rankByVector(sql, vectorQuery, filters, limit) };
  }
  const pool = Math.max(HYBRID_MIN_POOL, limit * HYBRID_POOL_PER_RESULT);
  // The query is embedded (on the model's thread or by the provider) while text ranks it.
  const [textRanking, vectorQuery] = await Promise.all([
    textMatches(sql, q, filters, pool),
    vectorQueryOrThrow(ai, q).catch((err: unknown) => {
      if (err instanceof AppError) return err;
      throw err;
    }),
  ]);
  if (vectorQuery instanceof AppError) {
    const page = await withEvents(sql, textRanking.slice(0, limit));
    return {
      hits: page.map(({ event, score }, i) => ({
        event,
        score,
        ranks: { text: i + 1, semantic: null },
      })),
      degraded: `${vectorQuery.message} These results are from text search alone.`,
    };
  }
  const fused = fuseRankings<Match>([
    {
      name: "text",
      items: textRanking,
      weight: (match) => ((match as TextMatch).tier === 0 ? EVERY_WORD_WEIGHT : 1),
    },
    { name: "semantic", items: await vectorMatches(sql, vectorQuery, filters, pool) },
  ], (match) => match.id);
  // Whole events for the page only: the rankings held ids.
  const page = await withEvents(
    sql,
    fused.slice(0, limit).map((f) => ({ id: f.item.id, score: f.score, ranks: f.ranks })),
  );
  return {
    hits: page.map(({ event, score, ranks }) => ({
      event,
      score,
      ranks: { text: ranks.text, semantic: ranks.semantic },
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
