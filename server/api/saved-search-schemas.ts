/**
 * Bodies and answers of /api/v1/me/searches. `filters` takes GET /api/v1/events's query
 * parameters by the same names as JSON values and is parsed by that listing's own schema
 * (eventQueryShape), so it means what the listing means; only the filters saved-search matching
 * knows (MATCHED_FILTERS) may be saved.
 */
import { z } from "zod";
import { isHttpUrl } from "../../shared/http-url.ts";
import { hasNul } from "../../shared/storable-text.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { MATCHED_FILTERS } from "../db/saved-search-match.ts";
import { eventQueryShape, filtersOf, NOT_BLANK, text } from "./event-query.ts";
import { radiusNeedsNear } from "./near-query.ts";

// updated_since is for a client catching up; a saved search is told of changes by itself.
const {
  limit: _limit,
  cursor: _cursor,
  collapse: _collapse,
  q: _q,
  updated_since: _updatedSince,
  ...filterShape
} = eventQueryShape;

/** The listing's filters, as its query string gives them (strings). */
const ListingFilters = z.strictObject(filterShape).superRefine(radiusNeedsNear);

/** Filters as saved: what the API took, and what the listing makes of them. */
export interface ParsedFilters {
  given: Record<string, string | number | boolean>;
  resolved: EventFilters;
}

const JsonFilters = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean()], {
    error: () => "each filter must be a string, a number or a boolean",
  }),
  { error: () => "filters must be a JSON object of filter names and values" },
);

/** `filters`: parsed by the listing's schema, problems reported at `filters.<name>`. */
export const SavedFilters = JsonFilters.transform((given, ctx): ParsedFilters => {
  for (const name of Object.keys(given)) {
    if (name in filterShape && !(MATCHED_FILTERS as readonly string[]).includes(name)) {
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `the filter ${name} cannot be saved yet: leave it out`,
      });
    }
  }
  const asQuery = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)]));
  const parsed = ListingFilters.safeParse(asQuery);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `${key} is not a filter that can be saved; the filters are ` +
              MATCHED_FILTERS.join(", "),
          });
        }
      } else {
        ctx.addIssue({ code: "custom", path: issue.path as string[], message: issue.message });
      }
    }
    return z.NEVER;
  }
  const { near, radius_km, ...rest } = parsed.data;
  const query = {
    ...rest,
    near,
    radius_km,
    limit: 1,
    cursor: undefined,
    collapse: false,
    updated_since: undefined,
  };
  return { given, resolved: filtersOf(query) };
}).meta({
  description: "GET /api/v1/events's filters by the same names, as JSON values (booleans as " +
    `booleans): ${MATCHED_FILTERS.join(", ")}. Example: {"city": "Berlin", "is_free": true}.`,
  example: { city: "Berlin", is_free: true },
});

const name = z.string({ error: () => "name must be a string" }).trim()
  .min(1, { message: "name must not be empty" })
  .max(100, { message: "name may have at most 100 characters" })
  .refine((s) => !hasNul(s), { message: "name must not contain NUL characters" })
  .meta({ pattern: NOT_BLANK, description: "What the search is for, shown in mail and pages." });

const webhookUrl = z.string({ error: () => "webhook_url must be a string or null" })
  .max(2048, { message: "webhook_url may have at most 2048 characters" })
  .refine(isHttpUrl, { message: "webhook_url must be an absolute http:// or https:// URL" })
  .nullable()
  .meta({
    format: "uri",
    description: "Where notices are POSTed, signed per Standard Webhooks; it must resolve to a " +
      "public address. null: no webhook.",
  });

export const EMAIL_MODES = ["instant", "daily", "off"] as const;
const email = z.enum(EMAIL_MODES, {
  error: () => `email must be one of ${EMAIL_MODES.join(", ")}`,
}).meta({
  description: "Mail to the account's confirmed address: at once, a daily digest, or none.",
});

const q = text("q").meta({
  description: "Words every matching event holds (the first tier of a ?q= listing).",
});

/** Body of POST /api/v1/me/searches. */
export const NewSavedSearch = z.strictObject({
  name,
  q,
  filters: SavedFilters.optional(),
  webhook_url: webhookUrl.optional(),
  email: email.default("off"),
}).meta({ id: "NewSavedSearch" });

/** Body of PATCH /api/v1/me/searches/{id}: the fields it names change. */
export const SavedSearchPatch = z.strictObject({
  name: name.optional(),
  q: text("q").nullable().meta({ description: "New words; null: none." }),
  filters: SavedFilters.optional(),
  webhook_url: webhookUrl.optional(),
  email: email.optional(),
  paused: z.boolean({ error: () => "paused must be true or false" }).optional().meta({
    description: "true: nothing is told until it is false again.",
  }),
  revoke_feeds: z.literal(true, { error: () => "revoke_feeds can only be true" }).optional()
    .meta({ description: "true: the feed URLs change; the old ones answer 404." }),
}).meta({ id: "SavedSearchPatch" });

/** A delivery of a notice, as the search's GET shows its latest. */
const Delivery = z.object({
  notice_id: z.string().meta({ description: "The notice's id; webhooks send msg_<id>." }),
  kind: z.enum(["new", "changed", "removed", "test", "cfp_closing"]),
  event_id: z.string(),
  channel: z.enum(["webhook", "email"]),
  status: z.enum(["pending", "delivered", "failed", "dropped"]),
  attempts: z.number().int(),
  last_attempt_at: z.string().nullable(),
  last_result: z.string().nullable(),
  created_at: z.string(),
}).meta({ id: "AlertDelivery" });

/** A saved search as the API shows it. */
export const SavedSearchView = z.object({
  id: z.string().meta({ format: "uuid" }),
  name: z.string(),
  q: z.string().nullable(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  webhook_url: z.string().nullable(),
  webhook_disabled_at: z.string().nullable().meta({
    description: "When retries ran out and the webhook was disabled; saving a webhook_url " +
      "enables it again.",
  }),
  email: email,
  paused: z.boolean(),
  feed_ics_url: z.string().meta({ description: "Private iCalendar feed of what it told of." }),
  feed_atom_url: z.string().meta({ description: "Private Atom feed of what it told of." }),
  created_at: z.string(),
  updated_at: z.string(),
  webhook_secret: z.string().optional().meta({
    description: "whsec_…: the key that signs its webhooks, shown only when it is made.",
  }),
  deliveries: z.array(Delivery).optional().meta({
    description: "The latest deliveries, newest first (GET of one search only).",
  }),
}).meta({ id: "SavedSearch" });
export type SavedSearchView = z.infer<typeof SavedSearchView>;

/** The `{id}` of a saved search in a path. */
export const SavedSearchIdParams = z.object({
  id: z.string().meta({ description: "The saved search's id, as the API gave it." }),
});
