/**
 * What the budget of an unreviewed contributor costs a push: 100-event batches stored in one
 * transaction as POST /api/v1/events stores them, with and without the budget's lock and count,
 * interleaved so that both see the same machine. The contributor already holds 900 upcoming
 * events (the count's worst case under the default budget of 1,000). Target: at most 5% more.
 * Also shown: the review signals an untrusted key's batch records besides (no target).
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-review-budget.ts [--rounds 40]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { EventBatch, type EventRecord } from "../shared/event-schema.ts";
import { openTestDatabase, testBackends } from "../dev-support/databases.ts";
import { insertApiKey } from "../server/db/api-keys.ts";
import { upsertEvents, type Writer } from "../server/db/events.ts";
import { countUpcomingEvents, lockIfUnreviewed } from "../server/db/contributor-budget.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { recordReviewSignals } from "../server/events/review-signals.ts";
import { FigureLog } from "./support/figures.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string", default: "40" } },
});
const rounds = Number(values.rounds);

function batchOf(first: number, version: number): EventRecord[] {
  return realisticEvents(first, 100).map((e) =>
    EventBatch.parse({ events: [{ ...e, title: `${e.title} (${version})` }] }).events[0]
  );
}

type Mode = "plain" | "budget" | "signals";

async function push(sql: Sql, o: { writer: Writer; events: EventRecord[]; mode: Mode }) {
  const started = performance.now();
  await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const limited = o.mode !== "plain" && await lockIfUnreviewed(tx, o.writer.contributorId);
    const outcome = await upsertEvents(tx, o.writer, o.events);
    if (limited) await countUpcomingEvents(tx, o.writer.contributorId);
    if (o.mode === "signals") {
      await recordReviewSignals(tx, {
        contributorId: o.writer.contributorId,
        events: o.events,
        outcome,
      });
    }
  });
  return performance.now() - started;
}

const log = new FigureLog();
for (const kind of testBackends().reverse()) {
  const db = await openTestDatabase(kind);
  try {
    const key = await insertApiKey(db.sql, {
      contributor: "new account",
      name: "dashboard key",
      scopes: ["events:write"],
      rateLimitPerMinute: 10,
      digest: crypto.getRandomValues(new Uint8Array(32)),
      prefix: "evk_benchbud",
      createdBy: "dashboard:bench@example.org",
      selfService: true,
    });
    const writer = { contributorId: key.contributor_id, keyId: key.id };
    for (let first = 1000; first < 1900; first += 100) {
      await upsertEvents(db.sql, writer, batchOf(first, 0));
    }
    if (!await lockIfUnreviewed(db.sql, writer.contributorId)) throw new Error("Not unreviewed");
    const times: Record<Mode, number[]> = { plain: [], budget: [], signals: [] };
    const modes: Mode[] = ["plain", "budget", "signals"];
    // Each push rewrites the same 100 events with a new title, so every row is really written;
    // the modes take turns in a rotating order.
    let version = 0;
    for (let round = 1; round <= rounds + 5; round++) {
      const order = [...modes.slice(round % 3), ...modes.slice(0, round % 3)];
      for (const mode of order) {
        const ms = await push(db.sql, { writer, events: batchOf(0, ++version), mode });
        if (round > 5) times[mode].push(ms);
      }
    }
    const section = `Review budget, ${kind}`;
    const median = (xs: number[]) => percentile(xs, 50);
    log.add({
      section,
      name: `${kind}: 100-event push, median`,
      value: median(times.plain),
      unit: "ms",
    });
    log.add({
      section,
      name: `${kind}: with the budget check, median`,
      value: median(times.budget),
      unit: "ms",
    });
    log.add({
      section,
      name: `${kind}: budget check adds (median)`,
      value: (median(times.budget) / median(times.plain) - 1) * 100,
      unit: "%",
      target: { kind: "max", value: 5 },
    });
    log.add({
      section,
      name: `${kind}: budget check and review signals add (median)`,
      value: (median(times.signals) / median(times.plain) - 1) * 100,
      unit: "%",
    });
  } finally {
    await db.close();
  }
}
