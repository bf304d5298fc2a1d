/** GET /healthz: whether the database answers and its schema is current. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { pendingMigrations } from "../db/migrate.ts";

/** 200 when the service can serve requests, 503 with the reason when it cannot. */
export async function healthzHandler(c: Context<AppEnv>): Promise<Response> {
  const { db } = c.get("deps");
  try {
    const pending = await pendingMigrations(db.sql);
    const ok = pending.length === 0;
    // AI search being unavailable does not stop the service; it is reported, not failed on.
    const aiSearch = ok ? await c.get("deps").ai.health() : undefined;
    return c.json({
      status: ok ? "ok" : "degraded",
      database: { kind: db.kind, reachable: true, pending_migrations: pending },
      ...(aiSearch ? { ai_search: aiSearch } : {}),
    }, ok ? 200 : 503);
  } catch (err) {
    return c.json({
      status: "unavailable",
      database: { kind: db.kind, reachable: false, error: (err as Error).message },
    }, 503);
  }
}
