/**
 * PostgreSQL restarted in the middle of a load (issue 12): the server process never dies, every
 * request gets an answer within a bound (200, or a JSON 503 while the database is away; never a
 * 500, never a hang), the server recovers by itself, and every batch acknowledged with 200 is
 * stored whole. Runs against a throwaway cluster of its own, never the shared one.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { migrate } from "../../server/db/migrate.ts";
import { sampleEvent } from "../support/events.ts";
import { npmStart } from "./support/npm-start.ts";
import { canRunThrowawayPostgres, startThrowawayPostgres } from "./support/throwaway-postgres.ts";

const CLIENTS = 4;
const BATCH = 20;
/** No request may take longer than this, restart or not. */
const ANSWER_WITHIN_MS = 15_000;

interface Outcome {
  batch: string;
  status: number | "no answer";
  code?: string;
  ms: number;
}

async function pushBatch(url: string, key: string, batch: string): Promise<Outcome> {
  const started = Date.now();
  const events = Array.from(
    { length: BATCH },
    (_, i) => sampleEvent(i, { external_id: `${batch}-${i}`, title: `Restart load ${batch} ${i}` }),
  );
  try {
    const res = await fetch(`${url}/api/v1/events`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ events }),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    const body = await res.json();
    return { batch, status: res.status, code: body.code, ms: Date.now() - started };
  } catch {
    return { batch, status: "no answer", ms: Date.now() - started };
  }
}

Deno.test({
  name: "[postgres] a PostgreSQL restart under load: no crash, no 500, no hang, nothing lost",
  ignore: !(await canRunThrowawayPostgres()),
  fn: async () => {
    const pg = await startThrowawayPostgres();
    const adminKey = generateApiKey();
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    await migrate(admin);
    const server = await npmStart({
      env: { PORT: "0", DATABASE_URL: pg.url, ADMIN_API_KEY: adminKey },
    });
    try {
      const url = await server.listening();
      const created = await fetch(`${url}/api/v1/admin/keys`, {
        method: "POST",
        headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          contributor: "load@example.org",
          name: "load",
          rate_limit_per_minute: 100_000,
        }),
      });
      const { data: { key } } = await created.json();
      const outcomes: Outcome[] = [];
      let phase: "before" | "restarting" | "after" = "before";
      let recoveredAt = Infinity;
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; phase !== "after" || Date.now() < recoveredAt + 2_000; n++) {
          const outcome = await pushBatch(url, key, `c${client}-b${n}`);
          outcomes.push(outcome);
          if (phase === "after" && outcome.status === 200) {
            recoveredAt = Math.min(recoveredAt, Date.now());
          }
          if (n > 2_000) break;
        }
      });
      await new Promise((r) => setTimeout(r, 2_000));
      phase = "restarting";
      await pg.restart();
      phase = "after";
      await Promise.all(clients);

      const exited = await Promise.race([server.status, Promise.resolve(null)]);
      assert.equal(exited, null, `the server died:\n${server.output()}`);
      const statuses = outcomes.map((o) => o.status);
      const unexpected = outcomes.filter((o) =>
        !(o.status === 200 || (o.status === 503 && o.code === "service_unavailable"))
      );
      assert.deepEqual(unexpected, [], `answers other than 200 and 503:\n${server.output()}`);
      assert.ok(statuses.filter((s) => s === 200).length > 0);
      assert.ok(recoveredAt < Infinity, "no batch was accepted after the restart");

      const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.batch);
      const stored = await admin<{ batch: string; n: number }[]>`
        SELECT regexp_replace(external_id, '-[0-9]+$', '') AS batch, count(*)::int AS n
        FROM events GROUP BY 1`;
      const counts = new Map(stored.map((r) => [r.batch, r.n]));
      const partial = stored.filter((r) => r.n !== BATCH);
      assert.deepEqual(partial, [], "a batch was stored in part");
      const lost = acknowledged.filter((b) => counts.get(b) !== BATCH);
      assert.deepEqual(lost, [], "acknowledged batches are missing");
      console.log(
        `${outcomes.length} batches: ${acknowledged.length} acknowledged, ` +
          `${statuses.filter((s) => s === 503).length} answered 503; slowest answer ` +
          `${Math.max(...outcomes.map((o) => o.ms))} ms`,
      );
    } finally {
      await server.kill();
      await admin.end();
      await pg.destroy();
    }
  },
});
