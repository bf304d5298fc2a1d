/** Events: the batch upsert and the public reads. */
import type { Sql } from "postgres";
import type { EventRecord } from "../../shared/event-schema.ts";
import type { ItemError } from "../../shared/api-schemas.ts";
import { contentHash } from "./content-hash.ts";

/** Who writes a batch: the owning contributor and the key used. */
export interface Writer {
  contributorId: string;
  keyId: string;
}

export interface UpsertOutcome {
  inserted: number;
  updated: number;
  errors: ItemError[];
  /** Ids of the events the batch wrote or confirmed, in first-occurrence order. */
  eventIds: string[];
  /** The events the batch inserted or changed, as stored (an identical re-send is not here). */
  changed: ChangedEvent[];
}

/** An event a batch inserted or changed. */
export interface ChangedEvent {
  id: string;
  inserted: boolean;
  event: EventRecord;
}

type PairKey = string;
const pairKey = (e: { external_id: string; platform: string }): PairKey =>
  JSON.stringify([e.platform, e.external_id]);

/**
 * Upserts a validated batch by (external_id, platform) in two set-based statements. Items apply
 * in order: the last occurrence of a pair is what is stored, the first counts as inserted when the
 * pair is new. Pairs owned by another contributor are left alone and reported. Call it inside a
 * transaction so the batch is all or nothing.
 */
export async function upsertEvents(
  sql: Sql,
  writer: Writer,
  events: EventRecord[],
): Promise<UpsertOutcome> {
  const lastByPair = new Map<PairKey, EventRecord>();
  for (const e of events) lastByPair.set(pairKey(e), e);
  // A fixed order keeps concurrent batches from locking rows in opposite orders (deadlock).
  const unique = [...lastByPair.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = await Promise.all(
    unique.map(async ([, e]) => ({ ...e, content_hash: await contentHash(e) })),
  );

  const written = await sql<
    { id: string; external_id: string; platform: string; inserted: boolean }[]
  >`
    INSERT INTO events AS e (
      external_id, platform, contributor_id, last_key_id, source_url, title, description,
      starts_at, ends_at, timezone, venue_name, city, country, latitude, longitude, is_virtual,
      is_hybrid, is_free, price_min, price_max, currency, is_sold_out, event_type, categories,
      tags, topics, organiser_name, organiser_url, cover_image_url, attendee_count, capacity,
      cfp_url, cfp_opens_at, cfp_closes_at, content_hash
    )
    SELECT
      external_id, platform, ${writer.contributorId}::uuid, ${writer.keyId}::uuid, source_url,
      title, description, starts_at, ends_at, timezone, venue_name, city, country, latitude,
      longitude, is_virtual, is_hybrid, is_free, price_min, price_max, currency, is_sold_out,
      event_type, categories, tags, topics, organiser_name, organiser_url, cover_image_url,
      attendee_count, capacity, cfp_url, cfp_opens_at, cfp_closes_at, content_hash
    FROM jsonb_to_recordset(${sql.json(rows)}::jsonb) AS x(
      external_id text, platform text, source_url text, title text, description text,
      starts_at timestamptz, ends_at timestamptz, timezone text, venue_name text, city text,
      country text, latitude float8, longitude float8, is_virtual boolean, is_hybrid boolean,
      is_free boolean, price_min float8, price_max float8, currency text, is_sold_out boolean,
      event_type text, categories text[], tags text[], topics text[], organiser_name text,
      organiser_url text, cover_image_url text, attendee_count integer, capacity integer,
      cfp_url text, cfp_opens_at timestamptz, cfp_closes_at timestamptz, content_hash text
    )
    -- Skip rows that would change nothing (an identical re-send by the same key) or that belong
    -- to someone else before the insert is attempted: each attempt computes the row's tsvector,
    -- the costliest part of a write. The ON CONFLICT clause still guards against races.
    WHERE NOT EXISTS (
      SELECT 1 FROM events cur
      WHERE cur.external_id = x.external_id AND cur.platform = x.platform
        AND (cur.contributor_id <> ${writer.contributorId}::uuid
          OR (cur.content_hash = x.content_hash AND cur.last_key_id = ${writer.keyId}::uuid))
    )
    ON CONFLICT (external_id, platform) DO UPDATE SET
      last_key_id = EXCLUDED.last_key_id, source_url = EXCLUDED.source_url,
      title = EXCLUDED.title, description = EXCLUDED.description, starts_at = EXCLUDED.starts_at,
      ends_at = EXCLUDED.ends_at, timezone = EXCLUDED.timezone,
      venue_name = EXCLUDED.venue_name, city = EXCLUDED.city, country = EXCLUDED.country,
      latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
      is_virtual = EXCLUDED.is_virtual, is_hybrid = EXCLUDED.is_hybrid,
      is_free = EXCLUDED.is_free, price_min = EXCLUDED.price_min, price_max = EXCLUDED.price_max,
      currency = EXCLUDED.currency, is_sold_out = EXCLUDED.is_sold_out,
      event_type = EXCLUDED.event_type, categories = EXCLUDED.categories, tags = EXCLUDED.tags,
      topics = EXCLUDED.topics, organiser_name = EXCLUDED.organiser_name,
      organiser_url = EXCLUDED.organiser_url, cover_image_url = EXCLUDED.cover_image_url,
      attendee_count = EXCLUDED.attendee_count, capacity = EXCLUDED.capacity,
      cfp_url = EXCLUDED.cfp_url, cfp_opens_at = EXCLUDED.cfp_opens_at,
      cfp_closes_at = EXCLUDED.cfp_closes_at, content_hash = EXCLUDED.content_hash,
      updated_at = CASE WHEN e.content_hash = EXCLUDED.content_hash THEN e.updated_at ELSE now() END
    -- Another contributor's event is never touched; an identical re-send by the same key is a no-op.
    WHERE e.contributor_id = EXCLUDED.contributor_id
      AND (e.content_hash <> EXCLUDED.content_hash OR e.last_key_id <> EXCLUDED.last_key_id)
    RETURNING e.id, e.external_id, e.platform, (xmax = 0) AS inserted`;

  const outcome = new Map<PairKey, { id: string; inserted: boolean } | "foreign">();
  for (const w of written) outcome.set(pairKey(w), { id: w.id, inserted: w.inserted });
  const untouched = rows.filter((r) => !outcome.has(pairKey(r)));
  if (untouched.length > 0) {
    const existing = await sql<
      { id: string; external_id: string; platform: string; mine: boolean }[]
    >`
      SELECT id, external_id, platform, contributor_id = ${writer.contributorId}::uuid AS mine
      FROM events
      WHERE (external_id, platform) IN (
        SELECT * FROM unnest(${untouched.map((r) => r.external_id)}::text[],
                             ${untouched.map((r) => r.platform)}::text[])
      )`;
    for (const row of existing) {
      outcome.set(pairKey(row), row.mine ? { id: row.id, inserted: false } : "foreign");
    }
  }
  const changed = written.map((w) => ({
    id: w.id,
    inserted: w.inserted,
    event: lastByPair.get(pairKey(w))!,
  }));
  return { ...countOutcome(events, outcome), changed };
}

function countOutcome(
  events: EventRecord[],
  outcome: Map<PairKey, { id: string; inserted: boolean } | "foreign">,
): Omit<UpsertOutcome, "changed"> {
  const result = { inserted: 0, updated: 0, errors: [] as ItemError[], eventIds: [] as string[] };
  const seen = new Set<PairKey>();
  events.forEach((e, index) => {
    const key = pairKey(e);
    const o = outcome.get(key);
    if (o === undefined) throw new Error(`Cannot count batch: no outcome for item ${index}`);
    if (o === "foreign") {
      result.errors.push({
        index,
        external_id: e.external_id,
        platform: e.platform,
        code: "owned_by_another_contributor",
        message:
          `An event with external_id ${JSON.stringify(e.external_id)} on platform ${e.platform} ` +
          "belongs to another contributor; it was not changed. Use an external_id of your own.",
      });
    } else if (seen.has(key)) {
      result.updated++;
    } else {
      seen.add(key);
      result.eventIds.push(o.id);
      if (o.inserted) result.inserted++;
      else result.updated++;
    }
  });
  return result;
}
