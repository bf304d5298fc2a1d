/** Review signals of events (server/events/event-signals.ts), stored and summed up. */
import type { Sql } from "postgres";

/** The hosts among `hosts` that cleaned-up contributors' events used. */
export async function knownSpamHosts(sql: Sql, hosts: string[]): Promise<Set<string>> {
  if (hosts.length === 0) return new Set();
  const rows = await sql<{ host: string }[]>`
    SELECT host FROM spam_hosts WHERE host = ANY(${hosts}::text[])`;
  return new Set(rows.map((r) => r.host));
}

/**
 * Replaces the signals of the batch's events: those with signals get them, the others lose any
 * they had (an edit may have cleared them). Runs inside the batch's transaction.
 */
export async function storeEventSignals(
  sql: Sql,
  batch: { contributorId: string; events: { eventId: string; signals: string[] }[] },
): Promise<void> {
  const flagged = batch.events.filter((e) => e.signals.length > 0);
  const clean = batch.events.filter((e) => e.signals.length === 0).map((e) => e.eventId);
  if (clean.length > 0) {
    await sql`DELETE FROM event_signals WHERE event_id = ANY(${clean}::uuid[])`;
  }
  if (flagged.length === 0) return;
  await sql`
    INSERT INTO event_signals (event_id, contributor_id, signals)
    SELECT x.event_id, ${batch.contributorId}::uuid, string_to_array(x.signals, ',')
    FROM unnest(${flagged.map((e) => e.eventId)}::uuid[],
                ${flagged.map((e) => e.signals.join(","))}::text[]) AS x (event_id, signals)
    ON CONFLICT (event_id) DO UPDATE SET signals = EXCLUDED.signals`;
}

/** Per contributor: how many of its events carry each signal. */
export async function signalCounts(
  sql: Sql,
  contributorIds: string[],
): Promise<Map<string, Record<string, number>>> {
  const rows = await sql<{ contributor_id: string; signal: string; events: number }[]>`
    SELECT s.contributor_id, x.signal, count(*)::int AS events
    FROM event_signals s, unnest(s.signals) AS x (signal)
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
