/** The `id` argument of the tools that take one event. */
import { z } from "zod";
import { isUuid } from "../uuid.ts";

const HOW = "an event id (a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e) from the id field " +
  "of search_events or find_similar_events results";

/** An event id, checked for its form so that a wrong one is a clear error, not a lookup. */
export const eventIdArgument = z.string({ error: () => `id must be ${HOW}` })
  .max(100, { error: `id must be ${HOW}` })
  .refine(isUuid, { error: `id must be ${HOW}` })
  .describe(`The event: ${HOW}.`);

/** The message for an id no event has. */
export function noSuchEvent(id: string): string {
  return `No event has the id ${id}: use an id from search_events results (an event may also ` +
    "have been removed by its contributor)";
}
