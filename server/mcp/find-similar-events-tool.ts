/**
 * find_similar_events: the events nearest in meaning to one event, through the same code as the
 * site's "similar events". Only events in AI search take part, on both sides.
 */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { getEventById } from "../db/event-reads.ts";
import { rankSimilarEvents } from "../search/similar-events.ts";
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
  const event = await getEventById(deps.db.sql, args.id);
  if (!event) throw new ToolCallError(noSuchEvent(args.id));
  const similar = await rankSimilarEvents(deps.db.sql, deps.ai, {
    event,
    limit: args.limit,
    filters,
  });
  if (similar.kind === "unavailable") {
    throw new ToolCallError(
      `AI search is unavailable: ${similar.reason}. Similar events cannot be found by meaning; ` +
        "use search_events with words from the event's title or topics instead.",
    );
  }
  if (similar.kind === "not_in_ai_search") {
    throw new ToolCallError(
      "This event is not in AI search (its contributor is not trusted yet, or it is still " +
        "being indexed), so it cannot be compared by meaning: use search_events with words " +
        "from its title or topics instead.",
    );
  }
  const results = similar.hits.map((h) => compactEvent(h.event, site, h.score));
  return {
    source: { id: event.id, title: event.title },
    results: results.slice(0, fitPage(results)),
  };
}
