/**
 * The MCP server: four read-only tools over the public events, built afresh for each request (the
 * endpoint is stateless), registered in a fixed order so `tools/list` is always the same.
 */
import { McpServer, type ToolAnnotations } from "@modelcontextprotocol/server";
import type { AppDeps } from "../app-env.ts";
import type { Site } from "./event-views.ts";
import {
  FindSimilarEventsInput,
  FindSimilarEventsOutput,
  findSimilarEventsTool,
} from "./find-similar-events-tool.ts";
import { GetEventInput, GetEventOutput, getEventTool } from "./get-event-tool.ts";
import { ListFacetsInput, ListFacetsOutput, listFacetsTool } from "./list-facets-tool.ts";
import { SearchEventsInput, SearchEventsOutput, searchEventsTool } from "./search-events-tool.ts";
import { memoiseJsonSchema } from "./memoised-json-schema.ts";
import { runTool, toolResult } from "./tool-results.ts";

/** Every tool only reads public data, gives the same answer for the same data, and stays here. */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const INSTRUCTIONS = `Technology events (meetups, conferences, workshops, hackathons) pushed by \
their organisers and by community scrapers. Start with search_events; use list_facets to learn \
which cities, countries and topics have events before asking the user to narrow down; get_event \
for every detail of one event; find_similar_events for "more like this". Cite events with their \
page_url or source_url. Times are given in UTC and in the event's own zone. For speakers: search_events with cfp "open" lists calls for papers still taking proposals, soonest deadline first.`;

for (
  const schema of [
    SearchEventsInput,
    SearchEventsOutput,
    GetEventInput,
    GetEventOutput,
    FindSimilarEventsInput,
    FindSimilarEventsOutput,
    ListFacetsInput,
    ListFacetsOutput,
  ]
) memoiseJsonSchema(schema);

/** A fresh server with the tools, for one request; `site` is where event pages live. */
export function createEventsMcpServer(deps: AppDeps, site: Site): McpServer {
  const server = new McpServer(
    { name: "tech-events", title: "Tech events", version: "1.0.0" },
    { instructions: INSTRUCTIONS },
  );

  server.registerTool(
    "search_events",
    {
      title: "Search tech events",
      description: `Find technology events by words, meaning, place and time. Without query: \
upcoming events, soonest first. With query: ranked matches (mode text, semantic or hybrid). \
Filters combine with AND: city, country, topic, near (a point and radius in km), when (today, \
this_week, this_weekend, next_week, this_month, next_month, in the asker's timezone) or from/to, \
online (online, in_person, hybrid) and free. Past events appear only with from. Each result has \
the event's id (for get_event and find_similar_events), start in UTC and local time, place, \
price, a short description, source_url and page_url, and its call for papers (cfp_url, \
cfp_closes_at, cfp_status). Page with next_cursor. Example: \
{"query": "rust", "city": "Berlin", "when": "next_month", "timezone": "Europe/Berlin"}. \
To answer "where can I still submit a talk about X": call with cfp "open" and X as topic (or as \
query with sort "cfp_closes_at"), add a place if the asker named one; results come soonest \
deadline first. Tell the asker each event's deadline (cfp_closes_at, in their zone; it is open \
through that second; null means no deadline given) and link cfp_url, where proposals are sent.`,
      inputSchema: SearchEventsInput,
      outputSchema: SearchEventsOutput,
      annotations: { title: "Search tech events", ...READ_ONLY },
    },
    (args) =>
      runTool("search_events", async () => toolResult(await searchEventsTool(deps, site, args))),
  );

  server.registerTool("get_event", {
    title: "Get one event",
    description: `Everything about one event by its id (from search_events or \
find_similar_events): full description, times in UTC and the event's zone, venue and \
coordinates, organiser, price and currency, topics and tags, links, and whether it is in AI \
search. Example: {"id": "0f8fad5b-d9cb-469f-a165-70867728950e"}.`,
    inputSchema: GetEventInput,
    outputSchema: GetEventOutput,
    annotations: { title: "Get one event", ...READ_ONLY },
  }, (args) => runTool("get_event", async () => toolResult(await getEventTool(deps, site, args))));

  server.registerTool("find_similar_events", {
    title: "Find similar events",
    description: `Events most similar in meaning to one event ("anything like this one?"), \
upcoming unless from is given, never the event itself. Works only for events in AI search \
(in_ai_search: true) and only returns such events. Takes the same filters as search_events, \
such as near or when. Example: {"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "near": \
{"latitude": 38.72, "longitude": -9.14, "radius_km": 100}}.`,
    inputSchema: FindSimilarEventsInput,
    outputSchema: FindSimilarEventsOutput,
    annotations: { title: "Find similar events", ...READ_ONLY },
  }, (args) =>
    runTool(
      "find_similar_events",
      async () => toolResult(await findSimilarEventsTool(deps, site, args)),
    ));

  server.registerTool("list_facets", {
    title: "List cities, countries and topics",
    description: `The cities, countries and topics that have upcoming events, commonest first, \
with event counts: use them to suggest choices or to spell a filter as the events do. Takes the \
same filters as search_events (for example country, to list its cities; or when). Example: \
{"country": "Portugal", "limit": 10}.`,
    inputSchema: ListFacetsInput,
    outputSchema: ListFacetsOutput,
    annotations: { title: "List cities, countries and topics", ...READ_ONLY },
  }, (args) => runTool("list_facets", async () => toolResult(await listFacetsTool(deps, args))));

  return server;
}
