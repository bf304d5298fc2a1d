/**
 * Detection's statement on the embedded database, whose lookup keys are held in memory
 * (key-index.ts): the keys are looked up there, then one statement stores the sets, reads and
 * ranks the candidates as storeKeysAndFindCandidates does, keeping those whose stored set holds a
 * key of their probe (the index may still hold a set a transaction replaced), and reports what
 * the index waits to learn: the outcome of the transactions that wrote sets before.
 */
import type { Sql } from "postgres";
import { type KeyIndex, keyIndexNamed } from "./key-index.ts";
import { lockDuplicates } from "./duplicate-links.ts";
import {
  candidatePairs,
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

/**
 * Stores the key sets `sets` (in event_key_sets and `index`) and returns pairs (probe, candidate)
 * of events that might be the same, as storeKeysAndFindCandidates does with event_lookup_keys.
 * Run under the duplicates lock.
 */
export async function storeSetsAndFindIndexed(
  sql: Sql,
  index: KeyIndex,
  o: { contributorId: string; sets: KeySetChange[]; probes: Probe[]; allNew: boolean },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  if (!index.built) {
    // Rows written while the keys were kept in the table: never read again, so they go.
    await sql`TRUNCATE event_lookup_keys`;
    await index.build(sql);
  }
  const found = {
    n: [] as number[],
    id: [] as string[],
    shared: [] as number[],
    // 1 or 0: postgres.js sends neither an array of booleans nor one of their texts as such.
    settled: [] as number[],
  };
  o.probes.forEach((p, i) => {
    const reach = { first: p.days.first, last: p.days.last, latitudes: p.latitudes };
    const probe = { keys: p.keys, reach, owner: o.contributorId, platform: p.platform };
    for (const [id, shared] of index.find(probe, KEY_FANOUT)) {
      found.n.push(i + 1);
      found.id.push(id);
      found.shared.push(shared);
      found.settled.push(index.isSettled(id) ? 1 : 0);
    }
  });
  const waiting = index.unsettled;
  const rows = await sql<(Partial<CandidateRow> & Outcome)[]>`
    WITH sets AS (${writeSets(sql, o.sets, { allNew: o.allNew })}), probe AS (
      SELECT * FROM ${probeTable(sql, o.probes)}
    ), hit AS (
      SELECT * FROM unnest(${found.n}::int[], ${found.id}::uuid[], ${found.shared}::int[],
                           ${found.settled}::int[]) AS h(n, event_id, shared, settled)
    ), ranked AS (${
    rankedCandidates(
      sql,
      o.contributorId,
      // The set stored holds a key of the probe: the index may hold one a transaction replaced,
      // while it waits to learn whether that transaction committed.
      sql`(h.settled = 1 OR EXISTS (SELECT FROM event_key_sets s
                                WHERE s.event_id = h.event_id AND s.keys && p.keys::bigint[]))`,
    )
  }), outcome AS (
      SELECT pg_current_xact_id()::text AS xid,
        ARRAY(SELECT pg_xact_status(x::xid8)::text
              FROM unnest(${waiting}::text[]) WITH ORDINALITY AS w(x, i) ORDER BY i) AS outcomes
    )
    -- One row at least, for the outcome, whether or not there are candidates.
    SELECT o.xid, o.outcomes, r.probe, r.id, r.title, r.source_url, r.starts_at,
           r.ends_at, r.city, r.country, r.latitude, r.longitude, r.is_virtual, r.is_hybrid
    FROM outcome o LEFT JOIN ranked r ON r.rank <= ${CANDIDATES_PER_PROBE}`;
  const [{ xid, outcomes }] = rows;
  index.settle(new Map(waiting.map((x, i) => [x, outcomes[i]])));
  const platforms = new Map(o.probes.map((p) => [p.id, p.platform]));
  index.write(
    o.sets.map((s) => ({
      eventId: s.event_id,
      keys: s.keys,
      firstDay: s.firstDay,
      lastDay: s.lastDay,
      degree: degreeOf(s.latitude),
      owner: o.contributorId,
      platform: platforms.get(s.event_id)!,
    })),
    xid,
  );
  return candidatePairs(
    rows.filter((r) => r.id !== null).map(({ xid: _x, outcomes: _o, ...r }) => r as CandidateRow),
  );
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
