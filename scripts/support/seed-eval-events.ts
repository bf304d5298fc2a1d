/** Stores the evaluation events under one trusted key. */
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { insertWriterKey } from "../../tests/support/writer-key.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { EVAL_EVENTS } from "../eval-search-data.ts";

/** Inserts EVAL_EVENTS, all upcoming, written by a trusted key. */
export async function seedEvalEvents(sql: Sql): Promise<void> {
  const writer = await insertWriterKey(sql, "eval");
  const start = Date.now() + 7 * 86_400_000;
  const events = EVAL_EVENTS.map(([id, title, topics, city, type, description], i) =>
    EventInput.parse({
      external_id: id,
      source_url: `https://events.example.org/${id}`,
      title,
      topics,
      city,
      event_type: type,
      description,
      starts_at: new Date(start + i * 3_600_000).toISOString(),
    })
  );
  await upsertEvents(sql, writer, events);
  await setKeyTrust(sql, writer.keyId, true, "eval");
}
