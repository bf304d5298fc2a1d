/**
 * The publisher starts a transaction only when its turn comes (in the service: no request in
 * flight, server/serve.ts), and looks at a backlog in several short transactions.
 */
import assert from "node:assert/strict";
import { EventInput } from "../../shared/event-schema.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { migrate } from "../../server/db/migrate.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { countPending } from "../../server/db/federation-objects.ts";
import { startFederation } from "../../server/federation/service.ts";
import { sampleEvent } from "../support/events.ts";
import { eventually } from "./support.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the publisher waits for its turn before each transaction`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await migrate(db.sql);
      let open = false;
      let opened = Promise.withResolvers<void>();
      // Turns taken, and those taken with events still to look at (a transaction's turns).
      let turns = 0;
      let lookingTurns = 0;
      const turn = async () => {
        turns++;
        while (!open) await opened.promise;
        if (await countPending(db.sql) > 0) lookingTurns++;
      };
      const federation = await startFederation(db.sql, {
        allowPrivateAddress: true,
        origin: "http://127.0.0.1:9",
        turn,
        pollMs: 50,
      });
      try {
        const writer = await insertWriterKey(db.sql, "turns");
        const events = Array.from({ length: 120 }, (_, i) => EventInput.parse(sampleEvent(i)));
        for (let i = 0; i < events.length; i += 40) {
          await upsertEvents(db.sql, writer, events.slice(i, i + 40));
        }
        federation.wake();
        await sleep(400);
        assert.equal(await countPending(db.sql), 120, "nothing is looked at before the turn");
        assert.ok(turns >= 1);
        open = true;
        opened.resolve();
        opened = Promise.withResolvers<void>();
        await eventually("the backlog looked at", async () => await countPending(db.sql) === 0);
        // Short transactions, each after its turn: more than the three takes of 50 rows.
        assert.ok(lookingTurns >= 5, `${lookingTurns} transactions`);
      } finally {
        await federation.stop();
      }
    } finally {
      await db.close();
    }
  });
}
