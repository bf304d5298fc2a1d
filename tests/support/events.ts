/** Realistic test events. */
import type { EventSubmission } from "../../shared/event-schema.ts";

/** A valid event with every required field; `overrides` replace or add fields. */
export function sampleEvent(
  n: number,
  overrides: Record<string, unknown> = {},
): EventSubmission & Record<string, unknown> {
  return {
    external_id: `evt-${n}`,
    source_url: `https://events.example.org/e/${n}`,
    title: `Tech talk number ${n}`,
    starts_at: "2030-06-01T18:00:00Z",
    ...overrides,
  };
}
