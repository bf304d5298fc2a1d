/**
 * CPU time spent by the benchmark and its database: this process (PGlite runs inside it) plus,
 * on a PostgreSQL server on this machine, the server processes serving this benchmark's
 * database. On a machine whose cores other people's work also wants, wall time measures their
 * load as much as ours; CPU time is what the work itself took.
 */
import process from "node:process";
import type { Sql } from "postgres";

// Linux's clock ticks per second (USER_HZ), what /proc/<pid>/stat counts in.
const TICKS_PER_SECOND = 100;

async function serverTicks(pid: number): Promise<number> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // Fields after the command name (which may hold spaces), 14th and 15th of the whole line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    // A server on another machine, or a process that just ended: nothing countable here.
    return 0;
  }
}

/** Milliseconds of CPU used so far by this process and the servers of `sql`'s database. */
export async function cpuMilliseconds(sql: Sql, kind: "pglite" | "postgres"): Promise<number> {
  const own = process.cpuUsage();
  let total = (own.user + own.system) / 1000;
  if (kind === "postgres") {
    const backends = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
    for (const { pid } of backends) {
      total += (await serverTicks(pid)) * (1000 / TICKS_PER_SECOND);
    }
  }
  return total;
}
