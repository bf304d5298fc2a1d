/** Puts a contributor's key and events straight into a database through the data layer. */
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { insertApiKey } from "../../server/db/api-keys.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { sampleEvent } from "../support/events.ts";

/** Creates a key (trusted or not) that has written `count` events; returns the event ids. */
export async function seedEvents(
  sql: Sql,
  count: number,
  options: { trusted: boolean; contributor?: string },
): Promise<string[]> {
  const key = await insertApiKey(sql, {
    contributor: options.contributor ?? "seeded",
    name: "seed",
    scopes: ["events:write"],
    rateLimitPerMinute: 60,
    digest: crypto.getRandomValues(new Uint8Array(32)),
    prefix: `evk_${crypto.randomUUID().slice(0, 8)}`,
    createdBy: "test",
  });
  const events = Array.from(
    { length: count },
    (_, i) => EventInput.parse(sampleEvent(i, { title: `Seeded event ${i} about topic ${i % 7}` })),
  );
  const outcome = await upsertEvents(
    sql,
    { contributorId: key.contributor_id, keyId: key.id },
    events,
  );
  if (options.trusted) await setKeyTrust(sql, key.id, true, "test");
  return outcome.eventIds;
}
