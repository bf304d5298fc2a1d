/** `events push <input>`: read, check and send a feed; then delete what it cancels or dropped. */
import { UsageError } from "../errors.ts";
import type { Format } from "../readers/formats.ts";
import type { Terminal } from "../output/terminal.ts";
import type { ApiSettings, ReadSettings } from "../settings.ts";
import { FeedInventory } from "./feed-inventory.ts";
import { runRecords } from "./run-records.ts";
import { syncFeed } from "./sync-feed.ts";

const DAY_MS = 86_400_000;

/** Settings of a push. */
export interface PushSettings {
  read: ReadSettings;
  /** Null with --dry-run: nothing is sent. */
  api: ApiSettings | null;
  /** The key for listing and deleting: with --sync also in a dry run (to show what would go). */
  syncApi: ApiSettings | null;
  batchSize: number;
  maxRetries: number;
  sync: boolean;
  force: boolean;
}

/** Pushes every valid record of `input` in batches; with no `api`, shows what would be sent. */
export async function push(
  input: string,
  settings: PushSettings,
  terminal: Terminal,
): Promise<void> {
  const { read } = settings;
  let inventory: FeedInventory | null = null;
  let format: Format | null = null;
  await runRecords(input, {
    command: "push",
    read,
    send: settings.api === null
      ? undefined
      : { api: settings.api, batchSize: settings.batchSize, maxRetries: settings.maxRetries },
    onFormat: (opened) => {
      format = opened;
      if (settings.sync && format === "ics" && read.calendar === undefined) {
        throw new UsageError(
          "Cannot use --sync with a calendar without naming it: add --calendar NAME (its " +
            "events' external_ids then start with NAME/, which is how --sync tells this " +
            "calendar's events from your others)",
        );
      }
      inventory = new FeedInventory({
        defaultPlatform: read.platform ?? (format === "ics" ? "ics_feed" : "other"),
        calendar: read.calendar,
      });
      return (record) => inventory!.add(record);
    },
    afterSend: async ({ onWait, report }) => {
      if (inventory === null || settings.syncApi === null) return null;
      const windowStartMs = read.from.getTime();
      const result = await syncFeed(inventory, {
        api: settings.syncApi,
        sync: settings.sync,
        force: settings.force,
        dryRun: settings.api === null,
        calendar: read.calendar,
        windowStartMs,
        // An ICS feed holds the occurrences of its window only; other feeds everything ahead.
        windowEndMs: format === "ics" ? windowStartMs + read.horizonDays * DAY_MS : null,
        maxRetries: settings.maxRetries,
        onWait,
      });
      const outcome = result.outcome;
      if (
        outcome && settings.api === null && outcome.stale * 2 > outcome.stored && !settings.force
      ) {
        report({
          location: "--sync",
          kind: "warning",
          message: `${outcome.stale} of the ${outcome.stored} stored events would go (more ` +
            "than half): without --dry-run the push would refuse to remove them unless --force",
        });
      }
      return result;
    },
  }, terminal);
}
