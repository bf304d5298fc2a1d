/** The evaluation's tech events as validated records. */
import { EventInput, type EventRecord } from "../../shared/event-schema.ts";
import { EVAL_EVENTS } from "../eval-search-data.ts";

/** EVAL_EVENTS as records, all upcoming, an hour apart from a week from now. */
export function evalEvents(): EventRecord[] {
  const start = Date.now() + 7 * 86_400_000;
  return EVAL_EVENTS.map(([id, title, topics, city, type, description], i) =>
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
}
