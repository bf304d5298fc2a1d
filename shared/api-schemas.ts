/**
 * Response bodies of the event endpoints and the error shapes, shared by the server, the CLI and
 * the OpenAPI document (`meta({ id })` names a schema there; descriptions become its text).
 */
import { z } from "zod";
import { EVENT_FIELDS, PLATFORMS } from "./event-schema.ts";

const nullableString = z.string().nullable();

/** What a call for papers is at the moment of a read. */
export const CFP_STATUSES = ["open", "not_yet_open", "closed"] as const;
const instant = (description: string) => z.string().meta({ format: "date-time", description });

/** Another listing of the same real-world event. */
export const DuplicateListing = z.object({
  id: z.string().meta({ format: "uuid" }),
  platform: z.enum(PLATFORMS),
  source_url: z.string(),
  title: z.string(),
}).meta({ id: "DuplicateListing", description: "Another listing of the same real-world event." });

/** An event as the API returns it: the submitted fields plus what the server owns. */
export const StoredEvent = z.object({
  id: z.string().meta({ format: "uuid", description: "Server-assigned identifier." }),
  external_id: z.string(),
  platform: z.enum(PLATFORMS),
  source_url: z.string(),
  title: z.string(),
  description: nullableString,
  starts_at: instant("Start, as a UTC instant."),
  ends_at: nullableString.meta({ format: "date-time", description: "End, as a UTC instant." }),
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
  attendee_count: z.number().int().nullable(),
  capacity: z.number().int().nullable(),
  cfp_url: nullableString.meta({ description: "The call for papers' page; null without a CFP." }),
  cfp_opens_at: nullableString.meta({
    format: "date-time",
    description: "When the call for papers opens, as a UTC instant.",
  }),
  cfp_closes_at: nullableString.meta({
    format: "date-time",
    description: "When the call for papers closes (open through that second), as a UTC instant.",
  }),
  cfp_status: z.enum(CFP_STATUSES).nullable().meta({
    description: "The call for papers now: open, not_yet_open or closed; null without cfp_url.",
  }),
  cfp_from: z.object({
    id: z.string().meta({ format: "uuid" }),
    platform: z.enum(PLATFORMS),
  }).nullable().meta({
    description: "In listings and search, set when the CFP fields are another listing's of the " +
      "same real-world event (this one has none): which one. null when they are its own.",
  }),
  created_at: instant("When the event was first pushed."),
  updated_at: instant("When its content last changed."),
  in_ai_search: z.boolean().meta({
    description: "Whether AI (semantic) search can return the event now.",
  }),
  duplicates: z.array(DuplicateListing).meta({
    description: "The other listings of the same real-world event, by other contributors or on " +
      "other platforms (the first is the group's canonical one unless this event is); [] when " +
      "none.",
  }),
}).meta({ id: "StoredEvent", description: "A stored event: the submitted fields and more." });
export type StoredEvent = z.infer<typeof StoredEvent>;

// Keep the stored shape and the submitted fields in step: a field added to one must reach both.
for (const field of EVENT_FIELDS) {
  if (!(field in StoredEvent.shape)) throw new Error(`StoredEvent lacks ${field}`);
}

/** A page of events. */
export const EventPage = z.object({
  data: z.array(StoredEvent),
  next_cursor: nullableString.meta({
    description: "Pass as `cursor` for the next page; null on the last page.",
  }),
}).meta({ id: "EventPage" });

/** An item of a push that was not applied: another contributor owns its pair. */
export const ItemError = z.object({
  index: z.number().int().meta({ description: "Position of the item in the batch (from 0)." }),
  external_id: z.string(),
  platform: z.enum(PLATFORMS),
  code: z.enum(["owned_by_another_contributor"]),
  message: z.string(),
});
export type ItemError = z.infer<typeof ItemError>;

/** 200 answer of POST /api/v1/events. */
export const BatchResult = z.object({
  data: z.object({
    inserted: z.number().int().meta({ description: "Events newly created." }),
    updated: z.number().int().meta({ description: "Existing events updated (or re-sent)." }),
    errors: z.array(ItemError).meta({ description: "Items not applied; empty when none." }),
  }),
}).meta({ id: "BatchResult" });
export type BatchResult = z.infer<typeof BatchResult>;

/** 400 answer: the spec's validation error shape. */
export const ValidationErrorBody = z.object({
  error: z.literal("Validation failed"),
  details: z.array(z.object({
    path: z.array(z.union([z.string(), z.number().int()])).meta({
      description: 'Where the problem is: ["events", 3, "title"] in the body, ' +
        '["query", "limit"] in the query string, ["path", "id"] in the URL path.',
    }),
    message: z.string(),
  })).meta({ description: "Every problem found, one entry each." }),
}).meta({ id: "ValidationError" });

/** Every other error answer. */
export const ErrorBody = z.object({
  error: z.string().meta({ description: "Short title of the status." }),
  code: z.string().meta({ description: "Machine-readable error code." }),
  message: z.string().meta({ description: "What is wrong and how to fix it." }),
  retry_after: z.number().int().optional().meta({
    description: "Seconds to wait before retrying (429 only).",
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Scopes a key can hold. */
export const SCOPES = ["events:write", "searches:write", "admin"] as const;
