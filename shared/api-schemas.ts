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

/** Scopes a key can hold. */
export const SCOPES = ["events:write", "admin"] as const;

/** A short name PostgreSQL can store: NUL or half a surrogate pair would fail the query. */
const keyLabel = (field: string) =>
  z.string().trim().min(1, { message: `${field} must not be empty` }).max(200)
    .refine((s) => !s.includes("\u0000") && !/\p{Cs}/u.test(s), {
      message: `${field} must not contain NUL characters or unpaired UTF-16 surrogates`,
    });

/** Body of POST /api/v1/admin/keys. */
export const CreateKeyRequest = z.strictObject({
  contributor: keyLabel("contributor"),
  name: keyLabel("name"),
  scopes: z.array(z.enum(SCOPES, {
    error: () => `each scope must be one of ${SCOPES.join(", ")}`,
  })).min(1, { message: "scopes must hold at least one scope" }).default(["events:write"]),
  rate_limit_per_minute: z.number().int().min(1).max(100_000).optional(),
});
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

/** An API key as operators see it. */
export const ApiKeyView = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  contributor: z.string(),
  scopes: z.array(z.string()),
  status: z.enum(["untrusted", "pending", "trusted", "revoked"]),
  trusted: z.boolean(),
  rate_limit_per_minute: z.number().int(),
  created_by: z.string(),
  created_at: z.string(),
  first_batch_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable().describe("When the key stops working; null: never."),
});
