/**
 * The one search every surface runs (GET /api/v1/search, the site, MCP search_events): reads what
 * the query says besides its subject (server/search/interpret-query.ts), chooses the mode, falls
 * back to text when AI search is unavailable, and says so in notices rather than throwing.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "../db/event-filters.ts";
import { type Match, type TextMatch, textMatches } from "../db/text-matches.ts";
import { vectorMatches } from "../db/vector-matches.ts";
import { EmbeddingProviderError } from "../embeddings/provider.ts";
import { queryEmbeddingText, type QueryTextStyle } from "../embeddings/embedding-text.ts";
import { AppError } from "../errors.ts";
import type { AiSearch } from "../embeddings/ai-search.ts";
import { type FusedMatch, fuseHybrid, type FusionSettings } from "./hybrid-fusion.ts";
import { type Interpreted, interpretQuery } from "./interpret-query.ts";
import { readCfpWords } from "./cfp-words.ts";
import {
  rankByText,
  rankByVector,
  type RankedEvent,
  thenSoonest,
  withEvents,
} from "./ranked-events.ts";

export const SEARCH_MODES = ["text", "semantic", "hybrid"] as const;
export type SearchMode = typeof SEARCH_MODES[number];

export interface SearchRequest {
  q: string;
  /** Default: hybrid when AI search is available, text otherwise. */
  mode?: SearchMode;
  filters: Omit<EventFilters, "q">;
  limit: number;
  /** Read places, attendance and times in the words as filters (default true). */
  interpret?: boolean;
  /** When "this week" is, and in which zone (default now, UTC). */
  now?: Date;
  timeZone?: string;
  /**
   * An explicitly asked semantic search where AI search is unavailable: "text" answers text
   * results with a notice (the default), "error" throws the 503 the REST API documents.
   */
  semanticUnavailable?: "text" | "error";
  /**
   * Evaluation only: settings other than the ones search uses; `fuse` replaces the fusion (the
   * evaluation records both rankings through it to measure fusions without searching again).
   */
  experiment?: {
    fusion?: FusionSettings;
    fuse?: (text: TextMatch[], semantic: Match[]) => FusedMatch[];
    queryText?: QueryTextStyle;
    /** Changes the query's vector before it ranks (query expansion). */
    queryVector?: (vector: number[]) => Promise<number[]>;
  };
}

export interface SearchHit extends RankedEvent {
  /** Hybrid only: where each ranking placed the event (null: not among its candidates). */
  ranks?: { text: number | null; semantic: number | null };
}

export interface SearchResult {
  hits: SearchHit[];
  /** The mode that ran. */
  mode: SearchMode;
  /** What the words were read as besides their subject (empty when nothing). */
  interpreted: Interpreted;
  /** The words searched for: the query without what `interpreted` took from it. */
  searched: string;
  /**
   * `searched` is empty or names only a kind of event ("events"): every event within the filters
   * shows.
   */
  listsAll: boolean;
  /** Things the asker may need to know: a fallback to text and why. */
  notices: string[];
}

/**
 * Candidates each ranking contributes to a hybrid search, as a multiple of the page: fusion only
 * reorders the best of each, and smaller pools keep both rankings cheap (the vector index's
 * search width follows its pool).
 */
const HYBRID_POOL_PER_RESULT = 2;
const HYBRID_MIN_POOL = 40;

/** How queries are worded for the model (server/embeddings/embedding-text.ts). */
const QUERY_TEXT: QueryTextStyle = "plain";

/** Runs a search; AI search being unavailable gives text results and a notice. */
export async function searchEvents(
  sql: Sql,
  ai: AiSearch,
  request: SearchRequest,
): Promise<SearchResult> {
  // CFP words first, so that what is left is read for places and times as usual.
  const cfpWords = request.interpret === false ? null : readCfpWords(request.q, request.filters);
  const asked = cfpWords ?? request;
  const { q, filters, interpreted, kindOnly } = request.interpret === false
    ? { q: request.q, filters: request.filters, interpreted: {}, kindOnly: false }
    : await interpretQuery(sql, {
      q: asked.q,
      filters: asked.filters,
      now: request.now ?? new Date(),
      timeZone: request.timeZone,
    });
  if (cfpWords) Object.assign(interpreted, cfpWords.interpreted);
  const { limit } = request;
  const notices: string[] = [];
  // Words that only filtered ("online", "call for papers") leave none: meaning still reads them.
  const vectorText = queryEmbeddingText(
    q === "" ? request.q : q,
    request.experiment?.queryText ?? QUERY_TEXT,
  );
  // Words that name a kind of event only, or none, rank the events within the filters, hiding none
  // (in hybrid search too: its semantic half holds only the events in AI search).
  const listsAll = kindOnly || q === "";
  const textPage = async (hits: SearchHit[]) =>
    listsAll ? await thenSoonest(sql, hits, filters, limit) : hits;
  const textOnly = async (why?: string) => {
    if (why) notices.push(`${why} These results are from text search.`);
    return {
      hits: await textPage(await rankByText(sql, q, filters, limit)),
      mode: "text" as const,
    };
  };
  const answer = async (): Promise<Pick<SearchResult, "hits" | "mode">> => {
    const status = await ai.availability.status();
    const mode = request.mode ?? (status.available ? "hybrid" : "text");
    // Words that only filtered ("in Berlin", "call for papers") left none to rank by: every event
    // within the filters, soonest first (semantic search ranks what it holds by their meaning).
    if (q === "" && mode !== "semantic") {
      return { hits: await thenSoonest(sql, [], filters, limit), mode };
    }
    if (request.mode === undefined && !status.available) {
      return await textOnly(`AI search is unavailable: ${status.reason}.`);
    }
    if (mode === "text") return await textOnly();
    if (mode === "semantic") {
      const vectorQuery = await vectorQueryOf(ai, vectorText, request.experiment?.queryVector);
      if (vectorQuery instanceof AppError) {
        if (request.semanticUnavailable === "error") throw vectorQuery;
        return await textOnly(vectorQuery.message);
      }
      return { hits: await rankByVector(sql, vectorQuery, filters, limit), mode };
    }
    const pool = Math.max(HYBRID_MIN_POOL, limit * HYBRID_POOL_PER_RESULT);
    // The query is embedded (on the model's thread or by the provider) while text ranks it, and
    // the vector ranking starts as soon as the vector is ready rather than after the text
    // ranking: on a server it runs on another of the pool's connections, beside the text
    // ranking's statements (on the embedded database, one connection, they take turns).
    const [textRanking, semantic] = await Promise.all([
      textMatches(sql, q, filters, pool),
      vectorRankingOf(sql, ai, {
        text: vectorText,
        filters,
        pool,
        expand: request.experiment?.queryVector,
      }),
    ]);
    if (semantic instanceof AppError) {
      notices.push(`${semantic.message} These results are from text search alone.`);
      const page = await withEvents(
        sql,
        textRanking.slice(0, limit).map(({ id, score }) => ({ id, score })),
      );
      return { hits: await textPage(page), mode: "text" };
    }
    // Whole events for the page only: the rankings held ids.
    const fused = request.experiment?.fuse?.(textRanking, semantic) ??
      fuseHybrid(textRanking, semantic, request.experiment?.fusion);
    return { hits: await textPage(await withEvents(sql, fused.slice(0, limit))), mode };
  };
  const result = await answer();
  return { ...result, interpreted, searched: q, listsAll, notices };
}

/** The vector ranking of `text`, or the 503 error of vectorQueryOf. */
async function vectorRankingOf(
  sql: Sql,
  ai: AiSearch,
  o: {
    text: string;
    filters: Omit<EventFilters, "q">;
    pool: number;
    expand?: (vector: number[]) => Promise<number[]>;
  },
): Promise<Match[] | AppError> {
  const vectorQuery = await vectorQueryOf(ai, o.text, o.expand);
  if (vectorQuery instanceof AppError) return vectorQuery;
  return await vectorMatches(sql, vectorQuery, o.filters, o.pool);
}

/** The query's vector and the store's settings, or a 503 error explaining what is missing. */
async function vectorQueryOf(
  ai: AiSearch,
  q: string,
  expand?: (vector: number[]) => Promise<number[]>,
) {
  const status = await ai.availability.status();
  if (!status.available) {
    return new AppError("service_unavailable", `AI search is unavailable: ${status.reason}.`);
  }
  try {
    const embedded = await ai.embedQuery(q);
    const vector = expand ? await expand(embedded) : embedded;
    return { vector, model: status.model, iterativeScan: status.iterativeScan };
  } catch (err) {
    if (!(err instanceof EmbeddingProviderError)) throw err;
    const retryAfterSeconds = err.retryAfterMs === undefined
      ? undefined
      : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    return new AppError(
      "service_unavailable",
      `AI search is unavailable: the embedding provider failed (${err.message}).`,
      { retryAfterSeconds },
    );
  }
}
