/** Stores the evaluation events under one trusted key. */
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { insertApiKey } from "../../server/db/api-keys.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { EVAL_EVENTS } from "../eval-search-data.ts";

/** Inserts EVAL_EVENTS, all upcoming, written by a trusted key. */
export async function seedEvalEvents(sql: Sql): Promise<void> {
  const key = await insertApiKey(sql, {
    contributor: "eval",
    name: "eval",
    scopes: ["events:write"],
    rateLimitPerMinute: 60,
    digest: crypto.getRandomValues(new Uint8Array(32)),
    prefix: "evk_eval",
    createdBy: "eval",
  });
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
  await upsertEvents(sql, { contributorId: key.contributor_id, keyId: key.id }, events);
  await setKeyTrust(sql, key.id, true, "eval");
}
