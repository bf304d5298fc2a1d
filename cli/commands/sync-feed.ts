/**
 * After a push: deletes what the feed cancels (ICS STATUS:CANCELLED) and, with --sync, the
 * contributor's events of the feed's scope that the feed no longer holds. Scope: the platforms of
 * the feed's records and, with --calendar NAME, the external_ids starting with NAME/. Only events
 * in the feed's window are candidates (from --from, default now; ICS: up to --horizon), so past
 * events stay. More than half of the stored events in scope are never removed without --force.
 */
import { InputError } from "../errors.ts";
import { ApiClient } from "../send/api-client.ts";
import { deleteOwnEvents, listOwnEvents, type OwnEvent } from "../send/own-events.ts";
import { RetryingRequests } from "../send/retrying-request.ts";
import type { SyncOutcome } from "../output/run-summary.ts";
import type { ApiSettings } from "../settings.ts";
import { type EventKey, FeedInventory, uidOf } from "./feed-inventory.ts";

/** How to sync. */
export interface SyncSettings {
  api: ApiSettings;
  /** Remove stale events (--sync); without it only cancelled events are deleted. */
  sync: boolean;
  force: boolean;
  /** Show what would be deleted; delete nothing. */
  dryRun: boolean;
  calendar?: string;
  /** The window's start, and (ICS) its end. */
  windowStartMs: number;
  windowEndMs: number | null;
  maxRetries: number;
  onWait: (ms: number, reason: string) => void;
}

/** What --sync looked at, what it found stale, and what it removed. */
export interface SyncResult {
  outcome: SyncOutcome | null;
  waitedMs: number;
}

function scopeText(platforms: string[], calendar?: string): string {
  const on = `platform ${platforms.join(", ")}`;
  return calendar === undefined ? on : `${on}, calendar ${calendar}`;
}

/** Every stored event in the scope, from one listing per platform. */
async function storedInScope(
  requests: RetryingRequests,
  platforms: string[],
  calendar?: string,
): Promise<OwnEvent[]> {
  const stored: OwnEvent[] = [];
  for (const platform of platforms) {
    stored.push(
      ...await listOwnEvents(requests, {
        platform,
        prefix: calendar === undefined ? undefined : `${calendar}/`,
      }),
    );
  }
  return stored;
}

/** The stored events of the cancelled series and single events the feed names. */
async function cancelledStored(
  requests: RetryingRequests,
  inventory: FeedInventory,
  stored: OwnEvent[] | null,
): Promise<EventKey[]> {
  const found: EventKey[] = [];
  for (const cancelled of inventory.cancelled) {
    if (!cancelled.series) {
      found.push({ platform: cancelled.platform, external_id: cancelled.external_id });
      continue;
    }
    // A whole series: every stored occurrence of its UID.
    const candidates = stored ?? await listOwnEvents(requests, {
      platform: cancelled.platform,
      prefix: cancelled.external_id,
    });
    for (const event of candidates) {
      if (
        event.platform === cancelled.platform && uidOf(event.external_id) === cancelled.external_id
      ) {
        found.push({ platform: event.platform, external_id: event.external_id });
      }
    }
  }
  return found;
}

function inWindow(event: OwnEvent, settings: SyncSettings): boolean {
  const startMs = Date.parse(event.starts_at);
  return startMs >= settings.windowStartMs &&
    (settings.windowEndMs === null || startMs < settings.windowEndMs);
}

/** Deletes what the feed cancels and, with --sync, what it no longer holds. */
export async function syncFeed(
  inventory: FeedInventory,
  settings: SyncSettings,
): Promise<SyncResult> {
  if (!settings.sync && (inventory.cancelled.length === 0 || settings.dryRun)) {
    return { outcome: null, waitedMs: 0 };
  }
  const client = new ApiClient({
    baseUrl: settings.api.apiUrl,
    apiKey: settings.api.apiKey,
    timeoutMs: settings.api.timeoutMs,
  });
  const figures = { retries: 0, request_ms: 0, waited_ms: 0 };
  const requests = new RetryingRequests(client, {
    maxRetries: settings.maxRetries,
    onWait: settings.onWait,
    figures,
  });
  try {
    const platforms = [...inventory.platforms].sort();
    if (platforms.length === 0) platforms.push(inventory.options.defaultPlatform);
    const stored = settings.sync
      ? await storedInScope(requests, platforms, settings.calendar)
      : null;
    const cancelled = await cancelledStored(requests, inventory, stored);
    const outcome: SyncOutcome = {
      scope: scopeText(platforms, settings.calendar),
      stored: 0,
      stale: 0,
      deleted: 0,
      cancelled_deleted: 0,
      would_delete: [],
    };
    let stale: OwnEvent[] = [];
    if (stored !== null) {
      const candidates = stored.filter((event) => inWindow(event, settings));
      stale = candidates.filter((event) => !inventory.holds(event) && !inventory.cancels(event));
      [outcome.stored, outcome.stale] = [candidates.length, stale.length];
      outcome.would_delete = stale.map((event) => event.external_id);
      if (stale.length * 2 > candidates.length && !settings.force && !settings.dryRun) {
        throw new InputError(
          `--sync would remove ${stale.length} of the ${candidates.length} events stored for ` +
            `${outcome.scope} (more than half): is the feed complete? Nothing was removed; ` +
            "pass --force to remove them all the same",
        );
      }
    }
    if (settings.dryRun) return { outcome, waitedMs: figures.waited_ms };
    const removed = await deleteOwnEvents(requests, [
      ...stale.map(({ platform, external_id }) => ({ platform, external_id })),
      ...cancelled,
    ]);
    // The API says how many it deleted in all; stale ones were listed just before, so they are
    // the ones found, and what was not found was a cancelled event never stored.
    outcome.deleted = Math.min(stale.length, removed.deleted);
    outcome.cancelled_deleted = removed.deleted - outcome.deleted;
    return { outcome, waitedMs: figures.waited_ms };
  } finally {
    await client.close();
  }
}
