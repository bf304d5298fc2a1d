/**
 * A contributor's own events: the batch delete by (external_id, platform) and the listing of
 * what a key's contributor has stored (for `events push --sync`). Shared by the server, the CLI
 * and the OpenAPI document.
 */
import { z } from "zod";
import { EventKey, MAX_BATCH_EVENTS, PLATFORMS } from "./event-schema.ts";

/** Body of POST /api/v1/events/delete. */
export const DeleteBatch = z.strictObject({
  events: z.array(EventKey, {
    error: (issue) =>
      issue.input === undefined
        ? "events is required: an array of {external_id, platform} items"
        : "events must be an array of {external_id, platform} items",
  })
    .min(1, { message: "events must hold at least 1 item" })
    .max(MAX_BATCH_EVENTS, {
      message: `events may hold at most ${MAX_BATCH_EVENTS} items; split the batch`,
    }),
}, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? "the request body must be a JSON object with an events array"
      : undefined,
}).meta({ id: "DeleteBatch" });
export type DeleteBatch = z.output<typeof DeleteBatch>;

/** An item of a batch delete that deleted nothing. */
export const DeleteItemError = z.object({
  index: z.number().int().meta({ description: "Position of the item in the batch (from 0)." }),
  external_id: z.string(),
  platform: z.enum(PLATFORMS),
  code: z.enum(["not_found"]),
  message: z.string(),
});
export type DeleteItemError = z.infer<typeof DeleteItemError>;

/** 200 answer of POST /api/v1/events/delete. */
export const DeleteResult = z.object({
  data: z.object({
    deleted: z.number().int().meta({ description: "Events deleted." }),
    errors: z.array(DeleteItemError).meta({
      description: "Items that named no event of yours; empty when there are none.",
    }),
  }),
}).meta({ id: "DeleteResult" });
export type DeleteResult = z.infer<typeof DeleteResult>;

/** One of a contributor's events, as GET /api/v1/me/events lists it. */
export const OwnEvent = z.object({
  id: z.string().meta({ format: "uuid" }),
  external_id: z.string(),
  platform: z.enum(PLATFORMS),
  source_url: z.string(),
  title: z.string(),
  starts_at: z.string().meta({ format: "date-time" }),
  updated_at: z.string().meta({ format: "date-time" }),
}).meta({ id: "OwnEvent" });
export type OwnEvent = z.infer<typeof OwnEvent>;

/** 200 answer of GET /api/v1/me/events. */
export const OwnEventPage = z.object({
  data: z.array(OwnEvent).meta({ description: "Ordered by platform, then external_id." }),
  next_cursor: z.string().nullable().meta({
    description: "Pass as `cursor` for the next page; null on the last page.",
  }),
}).meta({ id: "OwnEventPage" });
export type OwnEventPage = z.infer<typeof OwnEventPage>;
