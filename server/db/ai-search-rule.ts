/**
 * The one definition of "this event is in AI search", which docs/api.md promises `in_ai_search`
 * states exactly: the key that last wrote the event is trusted and not revoked, and the event has
 * a vector of the current model made from its current content. Listings, semantic search, similar
 * events, the worker's queue and the /healthz counts all build on these fragments; none of them
 * writes the rule again.
 *
 * The fragments name fixed aliases: `e` for events, `k` for the api_keys row of `e.last_key_id`,
 * `v` for an event_embeddings row.
 */
import type { Fragment, Sql } from "postgres";

/** On `k`: the events this key last wrote belong in AI search. */
export function keyFeedsAiSearch(sql: Sql): Fragment {
  return sql`(k.trusted AND k.revoked_at IS NULL)`;
}

/**
 * On `v` and `e`: `v` is a vector of `model` made from `e`'s current content. Without `model`,
 * the model recorded as the one search compares against (embedding_model); a worker or a search
 * passes the model of its own provider, which is that one whenever AI search is available.
 */
export function vectorIsCurrent(sql: Sql, model?: string): Fragment {
  const current = model === undefined
    ? sql`(SELECT m.model FROM embedding_model m)`
    : sql`${model}`;
  return sql`(v.model = ${current} AND v.content_hash = e.content_hash)`;
}

/** On `e` joined to `k`: the event is in AI search (a boolean, for `in_ai_search`). */
export function inAiSearch(sql: Sql): Fragment {
  return sql`(${keyFeedsAiSearch(sql)} AND EXISTS (
    SELECT 1 FROM event_embeddings v WHERE v.event_id = e.id AND ${vectorIsCurrent(sql)}
  ))`;
}

/**
 * On `e` joined to `k` and LEFT JOINed to its vector `v`: the event belongs in AI search but has
 * no current vector of `model` yet, so the worker has to make one.
 */
export function waitsForVector(sql: Sql, model: string): Fragment {
  return sql`(${keyFeedsAiSearch(sql)}
    AND (v.event_id IS NULL OR NOT ${vectorIsCurrent(sql, model)}))`;
}
