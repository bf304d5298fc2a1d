/** POST /api/v1/events: a contributor's batch of 1 to 100 events. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { EventBatch } from "../../shared/event-schema.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import { validationError } from "../errors.ts";
import { readJsonBody } from "./read-json-body.ts";
import { ingestBatch } from "../events/ingest-batch.ts";

/** Validates the whole batch, then upserts it; answers the insert/update counts. */
export async function postEvents(c: Context<AppEnv>): Promise<Response> {
  const parsed = EventBatch.safeParse(await readJsonBody(c));
  if (!parsed.success) throw validationError(toValidationDetails(parsed.error.issues));
  const outcome = await ingestBatch(c.get("deps"), c.get("principal"), parsed.data.events);
  return c.json({
    data: { inserted: outcome.inserted, updated: outcome.updated, errors: outcome.errors },
  });
}
