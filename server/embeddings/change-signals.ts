/**
 * How the embedding worker hears about new work. In one process a direct call wakes it; across
 * processes on a real PostgreSQL server a NOTIFY does (LISTEN/NOTIFY does not pass PGlite's
 * socket, and an embedded database has one process anyway). A slow poll covers anything missed.
 */
import type { Database } from "../db/connect.ts";
import type { ChangeSignals } from "../app-env.ts";

export const EMBEDDING_WORK_CHANNEL = "tech_events_embedding_work";

/** Signals that wake `wake` in this process and, on PostgreSQL, workers in other processes. */
export function embeddingChangeSignals(db: Database, wake: () => void): ChangeSignals {
  const signal = () => {
    wake();
    if (db.kind === "postgres") {
      db.sql.notify(EMBEDDING_WORK_CHANNEL, "").catch((err) => {
        console.error(`Cannot notify embedding workers: ${err.message}`);
      });
    }
  };
  return { eventsWritten: signal, keyTrustChanged: signal };
}

/** On PostgreSQL, calls `wake` on every notification; returns how to stop listening. */
export async function listenForEmbeddingWork(
  db: Database,
  wake: () => void,
): Promise<() => Promise<void>> {
  if (db.kind !== "postgres") return () => Promise.resolve();
  const { unlisten } = await db.sql.listen(EMBEDDING_WORK_CHANNEL, () => wake());
  return unlisten;
}
