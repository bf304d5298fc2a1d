/**
 * Vacuum and statistics for the embedded database. PGlite runs PostgreSQL as a single session,
 * with no autovacuum: left alone, its tables keep every dead row version an update or delete
 * leaves, the planner never gets statistics, and the visibility map is never set, so every
 * index-only scan also reads the table. The service does here what autovacuum would, with its
 * default thresholds, table by table, now and then. On a PostgreSQL server autovacuum does it.
 */
import type { Sql } from "postgres";

/** What a table needs, by autovacuum's default thresholds. */
interface TableState {
  name: string;
  live: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  /** Rows but no statistics at all: the counts above were lost (see vacuumEmbedded). */
  unanalysed: boolean;
}

// autovacuum_vacuum_threshold / _scale_factor, autovacuum_vacuum_insert_threshold /
// _insert_scale_factor, autovacuum_analyze_threshold / _scale_factor: PostgreSQL's defaults.
const VACUUM = { base: 50, share: 0.2 };
const VACUUM_INSERTS = { base: 1000, share: 0.2 };
const ANALYZE = { base: 50, share: 0.1 };

/** What `t` needs now: a vacuum (with analyse), an analyse alone, or nothing. */
export function upkeepOf(t: TableState): "vacuum" | "analyze" | null {
  if (
    t.dead > VACUUM.base + VACUUM.share * t.live ||
    t.insertedSinceVacuum > VACUUM_INSERTS.base + VACUUM_INSERTS.share * t.live
  ) {
    return "vacuum";
  }
  if (t.modifiedSinceAnalyze > ANALYZE.base + ANALYZE.share * t.live || t.unanalysed) {
    return "analyze";
  }
  return null;
}

/**
 * Vacuums (and analyses) or analyses each of the database's own tables that needs it, one at a
 * time: each holds the embedded database's one session while it runs, so each starts when
 * `turn` resolves (the service: once no request has been in flight for a moment). Returns what
 * it did.
 */
export async function vacuumEmbedded(
  sql: Sql,
  turn: () => Promise<void> = () => Promise.resolve(),
): Promise<{ table: string; did: string }[]> {
  // The session's counts reach the statistics at most once a second unless forced: read them whole.
  // A process that stops without closing the database loses the counts (they are kept only at a
  // clean shutdown): a table loaded then was never analysed, and would never be by its counts
  // (76,700 events so: text search p50 2.8 s instead of 38 ms). A table of more than a few pages
  // with no statistics at all is analysed.
  await sql`SELECT pg_stat_force_next_flush()`;
  const tables = await sql<TableState[]>`
    SELECT relname AS name, n_live_tup::float8 AS live, n_dead_tup::float8 AS dead,
           n_ins_since_vacuum::float8 AS "insertedSinceVacuum",
           n_mod_since_analyze::float8 AS "modifiedSinceAnalyze",
           pg_relation_size(relid) > 8 * current_setting('block_size')::int
             AND NOT EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = relid) AS unanalysed
    FROM pg_stat_user_tables WHERE schemaname = current_schema()
    ORDER BY n_dead_tup + n_ins_since_vacuum DESC`;
  const done: { table: string; did: string }[] = [];
  for (const t of tables) {
    const upkeep = upkeepOf(t);
    if (upkeep === null) continue;
    await turn();
    if (upkeep === "vacuum") await sql`VACUUM (ANALYZE) ${sql(t.name)}`;
    else await sql`ANALYZE ${sql(t.name)}`;
    done.push({ table: t.name, did: upkeep });
  }
  return done;
}
