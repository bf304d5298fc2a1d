/**
 * The fair front page: upcoming events soonest first, where no single unreviewed contributor
 * holds more than a quarter of a page and unreviewed contributors together no more than half
 * (docs/unreviewed-contributors.md says how the order is made). The site's home listing, the
 * feeds without a query and MCP search_events without a query list with it.
 */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { getEventsByIds } from "../db/event-reads.ts";
import { reviewedStream, unreviewedIds, unreviewedStream } from "../db/fair-listing.ts";
import { chooseFairPage, perContributorCap, unreviewedCap } from "./fair-share.ts";
import type { FairCursor } from "./fair-cursor.ts";

/** A fair page, soonest first, and where the next one starts (null at the end). */
export interface FairPage {
  events: StoredEvent[];
  next: FairCursor | null;
}

/** A page of `limit` upcoming events under the fair share rule, after `after`. */
export async function listEventsFairly(
  sql: Sql,
  filters: Omit<EventFilters, "q">,
  page: { limit: number; after?: FairCursor },
): Promise<FairPage> {
  const { limit, after } = page;
  const perRound = after?.perRound ?? perContributorCap(limit);
  const unreviewed = await unreviewedIds(sql);
  const [reviewedHead, unreviewedHead] = await Promise.all([
    reviewedStream(sql, { filters, unreviewed, after: after?.reviewed, limit: limit + 1 }),
    unreviewedStream(sql, {
      filters,
      unreviewed,
      perRound,
      after: after?.unreviewed,
      limit: unreviewedCap(limit) + 1,
    }),
  ]);
  const choice = chooseFairPage({ reviewed: reviewedHead, unreviewed: unreviewedHead }, limit);
  const byId = new Map(
    (await getEventsByIds(sql, choice.shown.map((e) => e.id), {
      lendCfp: filters.collapse !== false,
    })).map((e) => [e.id, e]),
  );
  const r = choice.lastReviewed ?? after?.reviewed;
  const u = choice.lastUnreviewed ?? after?.unreviewed;
  return {
    // An event deleted since its stream was read is left out.
    events: choice.shown.flatMap((e) => byId.get(e.id) ?? []),
    next: choice.more
      ? {
        perRound,
        ...(r ? { reviewed: { starts_at: r.starts_at, id: r.id } } : {}),
        ...(u ? { unreviewed: { round: u.round, starts_at: u.starts_at, id: u.id } } : {}),
      }
      : null,
  };
}
