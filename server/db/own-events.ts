/**
 * The events a contributor owns, for the contributor's own bookkeeping (`events push --sync`):
 * past ones too, ordered by (platform, external_id), paged by the last pair seen.
 */
import type { Sql } from "postgres";
import type { OwnEvent } from "../../shared/own-events-schemas.ts";

/** Where the previous page ended. */
export interface OwnEventsCursor {
  platform: string;
  external_id: string;
}

/** Filters and paging of listOwnEvents. */
export interface OwnEventsQuery {
  platform?: string;
  externalIdPrefix?: string;
  limit: number;
  after?: OwnEventsCursor;
}

/** A page of the contributor's events and the cursor of the next page (null on the last). */
export async function listOwnEvents(
  sql: Sql,
  contributorId: string,
  query: OwnEventsQuery,
): Promise<{ events: OwnEvent[]; next: OwnEventsCursor | null }> {
  const platform = query.platform ?? null;
  const prefix = query.externalIdPrefix ?? null;
  const after = query.after ?? null;
  const rows = await sql<(Omit<OwnEvent, "starts_at" | "updated_at"> & {
    starts_at: Date;
    updated_at: Date;
  })[]>`
    SELECT id, external_id, platform, source_url, title, starts_at, updated_at
    FROM events
    WHERE contributor_id = ${contributorId}::uuid
      AND (${platform}::text IS NULL OR platform = ${platform}::text)
      AND (${prefix}::text IS NULL OR starts_with(external_id, ${prefix}::text))
      AND (${after?.platform ?? null}::text IS NULL
        OR (platform COLLATE "C", external_id COLLATE "C")
           > (${after?.platform ?? null}::text, ${after?.external_id ?? null}::text))
    -- Byte order ("C"), the same on every server whatever its default collation, and the order
    -- of the index events_contributor_pair_idx.
    ORDER BY platform COLLATE "C", external_id COLLATE "C"
    LIMIT ${query.limit + 1}`;
  const page = rows.slice(0, query.limit).map((r) => ({
    ...r,
    starts_at: r.starts_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
  const last = page.at(-1);
  const next = rows.length > query.limit && last
    ? { platform: last.platform, external_id: last.external_id }
    : null;
  return { events: page, next };
}
