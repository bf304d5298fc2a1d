/**
 * Detection's statement on the embedded database, whose lookup keys are held in memory
 * (key-index.ts) with what detection reads of each listing: the keys are looked up there, and the
 * listings they find are checked against their probes' bounds and ranked here, as
 * storeKeysAndFindCandidates does in the database: reading the 230 events a batch's keys find took
 * PGlite about 3.4 of the statement's 16 ms at 100,000 events. Only a listing whose set waits to be
 * settled (the index may still hold a set a transaction replaced, and the event as either
 * transaction left it) is read, by the statement that stores the batch's sets and reports what the
 * index waits to learn: the outcome of the transactions that wrote sets before.
 */
import type { Sql } from "postgres";
import { type KeyIndex, keyIndexNamed } from "./key-index.ts";
import { lockDuplicates } from "./duplicate-links.ts";
import {
  type CandidateRow,
  CANDIDATES_PER_PROBE,
  KEY_FANOUT,
  type KeySetChange,
  type MatchRow,
  type Probe,
  probeTable,
  rankedCandidates,
  writeSets,
} from "./match-keys.ts";
import { degreeOf } from "./key-rows.ts";

/** A listing found for a probe, and how many of the probe's keys it holds. */
interface Found {
  probe: Probe;
  shared: number;
  candidate: MatchRow;
}

/**
 * Stores the key sets `sets` (in event_key_sets and `index`) and returns pairs (probe, candidate)
 * of events that might be the same, as storeKeysAndFindCandidates does with event_lookup_keys.
 * `rows`: what detection reads of each set's event, as the batch wrote it. Run under the
 * duplicates lock.
 */
export async function storeSetsAndFindIndexed(
  sql: Sql,
  index: KeyIndex,
  o: {
    contributorId: string;
    sets: KeySetChange[];
    probes: Probe[];
    allNew: boolean;
    rows: Map<string, MatchRow>;
  },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  if (!index.built) {
    // Rows written while the keys were kept in the table: never read again, so they go.
    await sql`TRUNCATE event_lookup_keys`;
    await index.build(sql);
  }
  const found: Found[] = [];
  // The probes with hits on a listing whose set waits to be settled, and those hits.
  const asked: Probe[] = [];
  const waiting = { n: [] as number[], id: [] as string[], shared: [] as number[] };
  for (const p of o.probes) {
    const reach = { first: p.days.first, last: p.days.last, latitudes: p.latitudes };
    const probe = { keys: p.keys, reach, owner: o.contributorId, platform: p.platform };
    for (const [id, shared] of index.find(probe, KEY_FANOUT)) {
      const candidate = index.storedRow(id);
      if (candidate === null) {
        if (asked.at(-1) !== p) asked.push(p);
        waiting.n.push(asked.length);
        waiting.id.push(id);
        waiting.shared.push(shared);
      } else if (withinBounds(p, candidate)) {
        found.push({ probe: p, shared, candidate });
      }
    }
  }
  const xids = index.unsettled;
  const rows = await sql<(Partial<CandidateRow & { shared: number }> & Outcome)[]>`
    WITH sets AS (${writeSets(sql, o.sets, { allNew: o.allNew })}), probe AS (
      SELECT * FROM ${probeTable(sql, asked)}
    ), hit AS (
      SELECT * FROM unnest(${waiting.n}::int[], ${waiting.id}::uuid[], ${waiting.shared}::int[])
        AS h(n, event_id, shared)
    ), ranked AS (${
    rankedCandidates(
      sql,
      o.contributorId,
      // The set stored holds a key of the probe: the index may hold one a transaction replaced.
      sql`EXISTS (SELECT FROM event_key_sets s
                  WHERE s.event_id = h.event_id AND s.keys && p.keys::bigint[])`,
    )
  }), outcome AS (
      SELECT pg_current_xact_id()::text AS xid,
        ARRAY(SELECT pg_xact_status(x::xid8)::text
              FROM unnest(${xids}::text[]) WITH ORDINALITY AS w(x, i) ORDER BY i) AS outcomes
    )
    -- One row at least, for the outcome, whether or not there are candidates.
    SELECT o.xid, o.outcomes, r.probe, r.shared, r.id, r.title, r.source_url, r.starts_at,
           r.ends_at, r.city, r.country, r.latitude, r.longitude, r.is_virtual, r.is_hybrid
    FROM outcome o LEFT JOIN ranked r ON true`;
  const [{ xid, outcomes }] = rows;
  const probes = new Map(o.probes.map((p) => [p.id, p]));
  for (const { xid: _x, outcomes: _o, probe, shared, ...candidate } of rows) {
    if (probe === undefined || probe === null) continue;
    found.push({ probe: probes.get(probe)!, shared: shared!, candidate: candidate as MatchRow });
  }
  index.settle(new Map(xids.map((x, i) => [x, outcomes[i]])));
  index.write(
    o.sets.map((s) => {
      const probe = probes.get(s.event_id)!;
      return {
        eventId: s.event_id,
        keys: s.keys,
        firstDay: s.firstDay,
        lastDay: s.lastDay,
        degree: degreeOf(s.latitude),
        owner: o.contributorId,
        platform: probe.platform,
        row: o.rows.get(s.event_id)!,
      };
    }),
    xid,
  );
  return rankCandidates(found);
}

/**
 * Whether `c` is within `p`'s bounds, as rankedCandidates's conditions read them: another
 * listing, touching its span, and in its latitude band (or without coordinates, or online).
 */
function withinBounds(p: Probe, c: MatchRow): boolean {
  if (c.id === p.id) return false;
  const start = c.starts_at.getTime();
  const end = c.ends_at === null ? start : Math.max(start, c.ends_at.getTime());
  if (start > p.to.getTime() || end < p.from.getTime()) return false;
  const band = p.latitudes;
  return band === null || c.latitude === null || c.is_virtual ||
    (c.latitude >= band[0] && c.latitude <= band[1]);
}

/**
 * Each probe's first CANDIDATES_PER_PROBE of `found`, ranked as rankedCandidates ranks them: by the
 * keys they share, then by how close they start, then by id.
 */
function rankCandidates(found: Found[]): { probe: string; candidate: MatchRow }[] {
  const byProbe = new Map<Probe, Found[]>();
  for (const f of found) {
    const list = byProbe.get(f.probe);
    if (list) list.push(f);
    else byProbe.set(f.probe, [f]);
  }
  const ranked: { probe: string; candidate: MatchRow }[] = [];
  for (const [probe, list] of byProbe) {
    const at = probe.at.getTime();
    const gap = (f: Found) => Math.abs(f.candidate.starts_at.getTime() - at);
    list.sort((a, b) =>
      b.shared - a.shared || gap(a) - gap(b) ||
      (a.candidate.id < b.candidate.id ? -1 : a.candidate.id > b.candidate.id ? 1 : 0)
    );
    for (const f of list.slice(0, CANDIDATES_PER_PROBE)) {
      ranked.push({ probe: probe.id, candidate: f.candidate });
    }
  }
  return ranked;
}

interface Outcome {
  xid: string;
  outcomes: string[];
}

/**
 * Forgets the listings of the session's key index whose set is gone from the database
 * (`KeyIndex.prune`), under the duplicates lock: no set is written between its reads and the
 * pruning. Returns how many it forgot (0 on a PostgreSQL server).
 */
export async function pruneKeyIndex(sql: Sql): Promise<number> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const index = keyIndexNamed(await lockDuplicates(tx));
    return index === null || !index.built ? 0 : await index.prune(tx);
  });
}
