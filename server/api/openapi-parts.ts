/** Building blocks of the OpenAPI document, shared by the modules that contribute paths. */

/** A reference to a component schema. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON response with the given schema. */
export const json = (schema: object, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** An error response (the Error component). */
export const error = (description: string) => json(ref("Error"), description);

/** The `{"data": ...}` envelope around `item`. */
export const dataOf = (item: object) => ({
  type: "object",
  properties: { data: item },
  required: ["data"],
});

/** Security requirement of key-authenticated operations. */
export const bearer = [{ bearerAuth: [] }];

/** The `{ref}` path parameter naming an API key. */
export const keyRef = {
  name: "ref",
  in: "path",
  required: true,
  description: "Key id or display prefix.",
  schema: { type: "string" },
};

/** Query parameters of GET /api/v1/events; the search endpoint takes the filters among them. */
export const listParams = [
  ["q", "Words to look for: events matching every word first, then most of the words."],
  ["city", "City, case-insensitive."],
  ["country", "Country, case-insensitive."],
  ["from", "Events not ended before this date or date-time; past events are listed too."],
  ["to", "Events starting at or before this date (whole day) or date-time."],
  ["platform", "Source platform."],
  ["external_id", "The contributor's identifier."],
  ["is_virtual", "true or false."],
  [
    "attendance",
    "online, in_person or hybrid. Hybrid events count as online and as in person; hybrid alone means both.",
  ],
  ["is_free", "true or false."],
  ["topic", "One topic, case-insensitive."],
  [
    "near",
    "latitude,longitude (decimal degrees, such as 38.72,-9.14): only events with coordinates " +
    "within radius_km of it, by great-circle distance, correct across the antimeridian and at " +
    "the poles.",
  ],
  ["radius_km", "Radius of near in kilometres, above 0 and at most 1000 (default 50)."],
  ["limit", "Page size, 1 to 100 (default 20)."],
  ["cursor", "next_cursor of the previous page."],
].map(([name, description]) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string" },
}));
