/** Puts a contributor's key and events straight into a database through the data layer. */
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { sampleEvent } from "../support/events.ts";

/** Creates a key (trusted or not) that has written `count` events; returns the event ids. */
export async function seedEvents(
  sql: Sql,
  count: number,
  options: { trusted: boolean; contributor?: string },
): Promise<string[]> {
  const writer = await insertWriterKey(sql, options.contributor ?? "seeded");
  const events = Array.from(
    { length: count },
    (_, i) => EventInput.parse(sampleEvent(i, { title: `Seeded event ${i} about topic ${i % 7}` })),
  );
  const outcome = await upsertEvents(sql, writer, events);
  if (options.trusted) await setKeyTrust(sql, writer.keyId, true, "test");
  return outcome.eventIds;
}
