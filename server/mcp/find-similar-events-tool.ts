/**
 * find_similar_events: the events nearest in meaning to one event. Only events in AI search take
 * part, on both sides: the event compared needs its current vector, and the vector ranking of
 * the shared search code only ever returns events in AI search.
 */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { getEventById } from "../db/event-reads.ts";
import { rankByVector } from "../db/event-search.ts";
import { currentVectorOf } from "../db/event-vector.ts";
import { eventIdArgument, noSuchEvent } from "./event-id-argument.ts";
import { CompactEvent, compactEvent, type Site } from "./event-views.ts";
import { filterArguments, toEventFilters } from "./filter-arguments.ts";
import { fitPage } from "./page-budget.ts";
import { strictArguments } from "./strict-arguments.ts";
import { ToolCallError } from "./tool-results.ts";

export const FindSimilarEventsInput = strictArguments({
  id: eventIdArgument,
  limit: z.number({ error: () => "limit must be a whole number from 1 to 50" })
    .int({ error: "limit must be a whole number from 1 to 50" })
    .min(1, { error: "limit must be a whole number from 1 to 50" })
    .max(50, { error: "limit must be a whole number from 1 to 50" })
    .default(10).describe("How many similar events, 1 to 50; default 10."),
  ...filterArguments,
});

export const FindSimilarEventsOutput = z.object({
  source: z.object({ id: z.string(), title: z.string() }).describe("The event compared with."),
  results: z.array(CompactEvent).describe("Most similar first; never the source event itself."),
});

/** Runs find_similar_events. */
export async function findSimilarEventsTool(
  deps: AppDeps,
  site: Site,
  args: z.output<typeof FindSimilarEventsInput>,
): Promise<z.infer<typeof FindSimilarEventsOutput>> {
  const { filters } = toEventFilters(args, new Date());
  const sql = deps.db.sql;
  const event = await getEventById(sql, args.id);
  if (!event) throw new ToolCallError(noSuchEvent(args.id));
  const status = await deps.ai.availability.status();
  if (!status.available) {
    throw new ToolCallError(
      `AI search is unavailable: ${status.reason}. Similar events cannot be found by meaning; ` +
        "use search_events with words from the event's title or topics instead.",
    );
  }
  const vector = event.in_ai_search ? await currentVectorOf(sql, event.id) : null;
  if (vector === null) {
    throw new ToolCallError(
      "This event is not in AI search (its contributor is not trusted yet, or it is still " +
        "being indexed), so it cannot be compared by meaning: use search_events with words " +
        "from its title or topics instead.",
    );
  }
  const hits = await rankByVector(
    sql,
    { vector, model: status.model, iterativeScan: status.iterativeScan },
    filters,
    args.limit + 1,
  );
  const results = hits.filter((h) => h.event.id !== event.id).slice(0, args.limit)
    .map((h) => compactEvent(h.event, site, h.score));
  return {
    source: { id: event.id, title: event.title },
    results: results.slice(0, fitPage(results)),
  };
}
