/**
 * How long the one-action clean-up takes for a contributor with 10,000 events (3 keys, an
 * account with a session), on PostgreSQL (when TEST_DATABASE_URL is set) and PGlite: the
 * transaction the API and the review queue run. Target: under a second.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-clean-up.ts [--events 10000]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { EventBatch } from "../shared/event-schema.ts";
import { openTestDatabase, testBackends } from "../dev-support/databases.ts";
import { type ApiKeyRecord, insertApiKey } from "../server/db/api-keys.ts";
import { upsertEvents } from "../server/db/events.ts";
import { cleanUpContributorRows } from "../server/db/contributor-clean-up.ts";
import { recordOperatorDecision } from "../server/db/operator-decisions.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { FigureLog } from "./support/figures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { events: { type: "string", default: "10000" } },
});
// Three keys' worth, in batches of 100.
const perKey = Math.ceil(Number(values.events) / 300) * 100;

const log = new FigureLog();
for (const kind of testBackends().reverse()) {
  const db = await openTestDatabase(kind);
  try {
    // Someone else's events stay: the delete must find the contributor's among them.
    const keys: ApiKeyRecord[] = [];
    for (const name of ["spam", "spam", "spam", "honest"]) {
      keys.push(
        await insertApiKey(db.sql, {
          contributor: name,
          name: `${name} key ${keys.length}`,
          scopes: ["events:write"],
          rateLimitPerMinute: 10,
          digest: crypto.getRandomValues(new Uint8Array(32)),
          prefix: `evk_b${crypto.randomUUID().slice(0, 7)}`,
          createdBy: "dashboard:bench@example.org",
          selfService: true,
        }),
      );
    }
    const seed = async (key: ApiKeyRecord, first: number, count: number) => {
      for (let at = first; at < first + count; at += 100) {
        const events = realisticEvents(at, 100).map((e) =>
          EventBatch.parse({ events: [e] }).events[0]
        );
        await upsertEvents(db.sql, { contributorId: key.contributor_id, keyId: key.id }, events);
      }
    };
    for (let i = 0; i < 3; i++) await seed(keys[i], i * perKey, perKey);
    await seed(keys[3], 1_000_000, 2000);
    const contributorId = keys[0].contributor_id;
    const started = performance.now();
    const counts = await db.sql.begin(async (transaction) => {
      const tx = transaction as unknown as Sql;
      const changed = await cleanUpContributorRows(tx, contributorId);
      await recordOperatorDecision(tx, {
        decidedBy: "bench",
        action: "clean_up",
        contributorId,
        details: { ...changed },
      });
      return changed;
    });
    const ms = performance.now() - started;
    log.add({
      section: `Clean-up, ${kind}`,
      name: `${kind}: clean-up of ${counts.events_deleted} events, ${counts.keys_revoked} keys`,
      value: ms,
      unit: "ms",
      target: { kind: "max", value: 1000 },
    });
  } finally {
    await db.close();
  }
}
