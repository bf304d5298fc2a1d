/** Response bodies of the HTTP API, shared by the server, the CLI and the OpenAPI document. */
import { z } from "zod";
import { EVENT_FIELDS, PLATFORMS } from "./event-schema.ts";

const nullableString = z.string().nullable();

/** An event as the API returns it: the submitted fields plus what the server owns. */
export const StoredEvent = z.object({
  id: z.string().describe("Server-assigned identifier (UUID)."),
  external_id: z.string(),
  platform: z.enum(PLATFORMS),
  source_url: z.string(),
  title: z.string(),
  description: nullableString,
  starts_at: z.string().describe("UTC instant, ISO 8601."),
  ends_at: nullableString,
  timezone: nullableString,
  venue_name: nullableString,
  city: nullableString,
  country: nullableString,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  is_virtual: z.boolean(),
  is_hybrid: z.boolean().nullable(),
  is_free: z.boolean(),
  price_min: z.number().nullable(),
  price_max: z.number().nullable(),
  currency: z.string(),
  is_sold_out: z.boolean().nullable(),
  event_type: nullableString,
  categories: z.array(z.string()),
  tags: z.array(z.string()),
  topics: z.array(z.string()),
  organiser_name: nullableString,
  organiser_url: nullableString,
  cover_image_url: nullableString,
  attendee_count: z.number().nullable(),
  capacity: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  in_ai_search: z.boolean().describe("Whether the event is in AI (semantic) search."),
});
export type StoredEvent = z.infer<typeof StoredEvent>;

// Keep the stored shape and the submitted fields in step: a field added to one must reach both.
for (const field of EVENT_FIELDS) {
  if (!(field in StoredEvent.shape)) throw new Error(`StoredEvent lacks ${field}`);
}

/** A per-item problem of an accepted batch. */
export const ItemError = z.object({
  index: z.number().int(),
  code: z.string(),
  message: z.string(),
  external_id: z.string().optional(),
  platform: z.string().optional(),
});
export type ItemError = z.infer<typeof ItemError>;

/** 200 answer of POST /api/v1/events. */
export const BatchResult = z.object({
  data: z.object({
    inserted: z.number().int(),
    updated: z.number().int(),
    errors: z.array(ItemError),
  }),
});
export type BatchResult = z.infer<typeof BatchResult>;

/** 400 answer: the spec's validation error shape. */
export const ValidationErrorBody = z.object({
  error: z.literal("Validation failed"),
  details: z.array(z.object({
    path: z.array(z.union([z.string(), z.number()])),
    message: z.string(),
  })),
});

/** Every other error answer. */
export const ErrorBody = z.object({
  error: z.string(),
  code: z.string(),
  message: z.string(),
  retry_after: z.number().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
