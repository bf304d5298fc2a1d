/** list_facets: the cities, countries and topics that have upcoming events, with counts. */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { eventFacets } from "../db/event-facets.ts";
import { filterArguments, toEventFilters } from "./filter-arguments.ts";
import { strictArguments } from "./strict-arguments.ts";

/** Facet values longer than the filter arguments take could not be used as filters. */
const MAX_VALUE_LENGTH = 100;

export const ListFacetsInput = strictArguments({
  ...filterArguments,
  limit: z.number({ error: () => "limit must be a whole number from 1 to 100" })
    .int({ error: "limit must be a whole number from 1 to 100" })
    .min(1, { error: "limit must be a whole number from 1 to 100" })
    .max(100, { error: "limit must be a whole number from 1 to 100" })
    .default(20).describe("How many values of each kind, the commonest first; default 20."),
});

const Values = z.array(z.object({ name: z.string(), count: z.number().int() }));

export const ListFacetsOutput = z.object({
  events: z.number().int().describe("How many events match the filters."),
  cities: Values.describe("Commonest first; use a name as search_events' city."),
  countries: Values.describe("Commonest first; use a name as search_events' country."),
  topics: Values.describe("Commonest first; use a name as search_events' topic."),
  distinct: z.object({
    cities: z.number().int(),
    countries: z.number().int(),
    topics: z.number().int(),
  }).describe("How many different values of each kind there are in all (beyond limit)."),
});

/** Runs list_facets. */
export async function listFacetsTool(
  deps: AppDeps,
  args: z.output<typeof ListFacetsInput>,
): Promise<z.infer<typeof ListFacetsOutput>> {
  const { filters } = toEventFilters(args, new Date());
  return await eventFacets(deps.db.sql, filters, {
    limit: args.limit,
    maxValueLength: MAX_VALUE_LENGTH,
  });
}
