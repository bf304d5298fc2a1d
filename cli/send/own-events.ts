/**
 * The contributor's own events on the service, for --sync: listing them (GET /api/v1/me/events,
 * page by page) and deleting some (POST /api/v1/events/delete, 100 at a time).
 */
import { DeleteResult, type OwnEvent, OwnEventPage } from "../../shared/own-events-schemas.ts";
import { ValidationErrorBody } from "../../shared/api-schemas.ts";
import { GaveUpError, UsageError } from "../errors.ts";
import { type ApiResponse, errorText } from "./api-client.ts";
import type { RequestPlan, RetryingRequests } from "./retrying-request.ts";

export type { OwnEvent };

/** What to list: a platform, and (for a named feed) an external_id prefix. */
export interface OwnEventsQuery {
  platform: string;
  prefix?: string;
}

const PAGE = 1000;
// A million events in one scope: far past any feed; a listing that goes on is a server fault.
const MAX_PAGES = 1000;
const DELETE_BATCH = 100;

function refused(what: string, response: ApiResponse): never {
  const body = ValidationErrorBody.safeParse(response.body);
  const details = body.success
    ? `: ${body.data.details.map((d) => d.message).join("; ")}`
    : `: ${errorText(response)}`;
  if (response.status === 400 || response.status === 404) {
    throw new UsageError(`Cannot ${what} (${response.status})${details}`);
  }
  throw new GaveUpError(`Cannot ${what}: the server answered ${response.status}${details}`);
}

/** A request whose every answer but the shared rules' is the caller's to read. */
function listing(
  requests: RetryingRequests,
  plan: { method: "GET" | "POST"; path: string; what: string; body?: unknown },
): RequestPlan<ApiResponse> {
  const { path, what } = plan;
  return {
    ...plan,
    on: {
      // A 404 that is not our JSON error is a server that has no such endpoint.
      404: (response) => {
        if (typeof response.body === "object") return null;
        throw new UsageError(
          `Cannot ${what}: ${requests.client.baseUrl}${path} answered 404; check --api-url (the server may be older than --sync)`,
        );
      },
    },
    otherwise: (response) => response,
  };
}

/** Every stored event of the contributor that the query names. */
export async function listOwnEvents(
  requests: RetryingRequests,
  query: OwnEventsQuery,
): Promise<OwnEvent[]> {
  const found: OwnEvent[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams({ platform: query.platform, limit: String(PAGE) });
    if (query.prefix) params.set("external_id_prefix", query.prefix);
    if (cursor) params.set("cursor", cursor);
    const what = "list your events (GET /api/v1/me/events)";
    const path = `/api/v1/me/events?${params}`;
    const response = await requests.send(listing(requests, { method: "GET", path, what }));
    if (response.status !== 200) refused(what, response);
    const page = OwnEventPage.safeParse(response.body);
    if (!page.success) throw new GaveUpError(`Cannot ${what}: the answer is not a list of events`);
    found.push(...page.data.data);
    cursor = page.data.next_cursor;
    if (cursor === null) return found;
  }
  throw new GaveUpError(`Cannot list your events: more than ${MAX_PAGES * PAGE} in one scope`);
}

/** Deletes the events named; how many were deleted and how many were already gone. */
export async function deleteOwnEvents(
  requests: RetryingRequests,
  items: { external_id: string; platform: string }[],
): Promise<{ deleted: number; missing: number }> {
  let deleted = 0;
  let missing = 0;
  for (let i = 0; i < items.length; i += DELETE_BATCH) {
    const events = items.slice(i, i + DELETE_BATCH);
    const what = "delete events (POST /api/v1/events/delete)";
    const response = await requests.send(
      listing(requests, { method: "POST", path: "/api/v1/events/delete", what, body: { events } }),
    );
    if (response.status !== 200) refused(what, response);
    const result = DeleteResult.safeParse(response.body);
    if (!result.success) {
      throw new GaveUpError(`Cannot ${what}: the answer does not say what was deleted`);
    }
    deleted += result.data.data.deleted;
    missing += result.data.data.errors.length;
  }
  return { deleted, missing };
}
