/** Review signals of events (server/events/event-signals.ts), stored and summed up. */
import type { Sql } from "postgres";

/**
 * Replaces the signals of the batch's events in one statement: each gets the signals found in
 * its text, plus `spam_host` when its source host is one a cleaned-up contributor used; those
 * left with none lose any row they had (an edit may have cleared them). Runs inside the batch's
 * transaction.
 */
export async function storeEventSignals(
  sql: Sql,
  batch: {
    contributorId: string;
    events: { eventId: string; signals: string[]; host: string | null }[];
  },
): Promise<void> {
  if (batch.events.length === 0) return;
  await sql`
    WITH given AS (
      SELECT x.event_id,
        array_remove(string_to_array(x.signals, ',') || CASE
          WHEN EXISTS (SELECT 1 FROM spam_hosts h WHERE h.host = x.host) THEN 'spam_host'
        END, NULL) AS signals
      FROM unnest(${batch.events.map((e) => e.eventId)}::uuid[],
                  ${batch.events.map((e) => e.signals.join(","))}::text[],
                  ${batch.events.map((e) => e.host)}::text[]) AS x (event_id, signals, host)
    ), cleared AS (
      DELETE FROM event_signals s USING given g
      WHERE s.event_id = g.event_id AND cardinality(g.signals) = 0
    )
    INSERT INTO event_signals (event_id, contributor_id, signals)
    SELECT g.event_id, ${batch.contributorId}::uuid, g.signals FROM given g
    WHERE cardinality(g.signals) > 0
    ON CONFLICT (event_id) DO UPDATE SET signals = EXCLUDED.signals`;
}

/** Per contributor: how many of its events carry each signal. */
export async function signalCounts(
  sql: Sql,
  contributorIds: string[],
): Promise<Map<string, Record<string, number>>> {
  const rows = await sql<{ contributor_id: string; signal: string; events: number }[]>`
    SELECT s.contributor_id, x.signal, count(*)::int AS events
    FROM event_signals s JOIN events e ON e.id = s.event_id, unnest(s.signals) AS x (signal)
    WHERE s.contributor_id = ANY(${contributorIds}::uuid[])
    GROUP BY 1, 2`;
  const counts = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const own = counts.get(row.contributor_id) ?? {};
    own[row.signal] = row.events;
    counts.set(row.contributor_id, own);
  }
  return counts;
}

/** Removes the signals of events deleted since (event_signals has no cascade from events). */
export async function pruneOrphanSignals(sql: Sql): Promise<void> {
  await sql`
    DELETE FROM event_signals s WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = s.event_id)`;
}
