/** Request and response bodies of the operators' key endpoints (server, CLI, OpenAPI document). */
import { z } from "zod";
import { SCOPES, StoredEvent } from "./api-schemas.ts";
import { dateTimeProblemMessage } from "./event-times.ts";
import { parseDateTime } from "./zoned-time.ts";
import { loneSurrogateMessage, nulMessage, unstorableText } from "./storable-text.ts";

/** Statuses of a key, from its trust and review state. */
export const KEY_STATUSES = ["untrusted", "pending", "trusted", "revoked"] as const;

/** A short name PostgreSQL can store: NUL or half a surrogate pair would fail the query. */
const keyLabel = (field: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? `${field} is required` : `${field} must be a string`,
  }).trim()
    .min(1, { message: `${field} must not be empty` })
    .max(200, { message: `${field} may be at most 200 characters` })
    .superRefine((s, ctx) => {
      const unstorable = unstorableText(s);
      if (unstorable === null) return;
      ctx.addIssue({
        code: "custom",
        message: unstorable === "nul" ? nulMessage(field) : loneSurrogateMessage(field),
      });
    });

/** The rate limits per minute an operator may give a key (the server's and the CLI's check). */
export const RATE_LIMIT_BOUNDS = { min: 1, max: 100_000 } as const;

/** A rate limit per minute, as operators set it. */
export const RateLimitPerMinute = z.number({
  error: (issue) =>
    issue.input === undefined
      ? "rate_limit_per_minute is required"
      : "rate_limit_per_minute must be a number",
})
  .int({ message: "rate_limit_per_minute must be a whole number" })
  .min(RATE_LIMIT_BOUNDS.min, {
    message: `rate_limit_per_minute must be at least ${RATE_LIMIT_BOUNDS.min}`,
  })
  .max(RATE_LIMIT_BOUNDS.max, {
    message: `rate_limit_per_minute must be at most ${RATE_LIMIT_BOUNDS.max}`,
  })
  .meta({ description: "Requests per minute the key may make." });

/** A future instant with Z or an offset: when a key stops working. */
const ExpiresAt = z.string({ error: () => "expires_at must be a date-time string" })
  .transform((value, ctx) => {
    const parsed = parseDateTime(value);
    if (parsed.kind !== "instant") {
      ctx.addIssue({
        code: "custom",
        message: parsed.kind === "invalid"
          ? dateTimeProblemMessage("expires_at", value, parsed.reason)
          : `expires_at ${JSON.stringify(value)} has no UTC offset: add Z or an offset such ` +
            "as +02:00",
      });
      return z.NEVER;
    }
    if (parsed.epochMs <= Date.now()) {
      ctx.addIssue({
        code: "custom",
        message: `expires_at ${value} is not in the future: give a later time, or leave ` +
          "expires_at out for a key that never expires",
      });
      return z.NEVER;
    }
    return new Date(parsed.epochMs);
  })
  .meta({
    type: "string",
    format: "date-time",
    description: "When the key stops working: a future date-time with Z or an offset. " +
      "Left out, the key never expires.",
  });

/** Body of POST /api/v1/admin/keys. */
export const CreateKeyRequest = z.strictObject({
  contributor: keyLabel("contributor").meta({
    description: "Who the key belongs to; made on first use. Events belong to the contributor.",
  }),
  name: keyLabel("name").meta({ description: "What the key is for, such as 'meetup scraper'." }),
  scopes: z.array(
    z.enum(SCOPES, { error: () => `each scope must be one of ${SCOPES.join(", ")}` }),
    { error: () => 'scopes must be an array of scopes, such as ["events:write"]' },
  ).min(1, { message: "scopes must hold at least one scope" }).default(["events:write"]),
  rate_limit_per_minute: RateLimitPerMinute.optional().meta({
    description: "Requests per minute; the server's default (RATE_LIMIT_PER_MINUTE) if omitted.",
  }),
  expires_at: ExpiresAt.optional(),
}).meta({ id: "CreateKeyRequest" });
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

/** Body of PATCH /api/v1/admin/keys/{ref}. */
export const KeyPatch = z.strictObject({ rate_limit_per_minute: RateLimitPerMinute })
  .meta({ id: "KeyPatch" });

const nullableInstant = z.string().nullable().meta({ format: "date-time" });

/** An API key as operators see it; never the key itself. */
export const ApiKeyView = z.object({
  id: z.string().meta({ format: "uuid" }),
  prefix: z.string().meta({ description: "Display prefix: evk_ and 8 characters." }),
  name: z.string(),
  contributor: z.string(),
  contributor_id: z.string().meta({
    format: "uuid",
    description: "For DELETE /api/v1/admin/contributors/{id}/events.",
  }),
  scopes: z.array(z.enum(SCOPES)),
  status: z.enum(KEY_STATUSES).meta({
    description: "pending: its first batch awaits review; revoked overrides the others.",
  }),
  trusted: z.boolean(),
  rate_limit_per_minute: z.number().int(),
  created_by: z.string(),
  created_at: z.string().meta({ format: "date-time" }),
  expires_at: nullableInstant.meta({ description: "When the key stops working; null: never." }),
  first_batch_at: nullableInstant,
  reviewed_at: nullableInstant,
  reviewed_by: z.string().nullable(),
  revoked_at: nullableInstant,
  last_used_at: nullableInstant,
}).meta({ id: "ApiKey" });
export type ApiKeyView = z.infer<typeof ApiKeyView>;

/** The 201 answer's key: the record plus the full key, shown this once. */
export const NewApiKey = ApiKeyView.extend({
  key: z.string().meta({ description: "The full key. It is shown only in this response." }),
}).meta({ id: "NewApiKey" });

/** A key with its first accepted batch, for review. */
export const KeyReview = ApiKeyView.extend({
  first_batch: z.object({
    received_at: z.string().meta({ format: "date-time" }),
    events: z.array(StoredEvent).meta({
      description: "The batch's events as they are now (deleted ones are gone).",
    }),
  }).nullable().meta({ description: "Null until the key has had a batch accepted." }),
}).meta({ id: "KeyReview" });
