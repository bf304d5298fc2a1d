/**
 * The end of a `push` or `validate` for people: the problems (grouped), then a summary of a few
 * lines with what to do next. `--verbose` adds the full table; `--json` prints the whole summary.
 */
import type { RunSummary } from "./run-summary.ts";
import { renderDetails } from "./run-summary.ts";
import { groupLine } from "./problem-groups.ts";
import { cell, renderTable } from "./tables.ts";
import type { Terminal } from "./terminal.ts";

/** How much to print. */
export interface ReportOptions {
  json: boolean;
  verbose: boolean;
}

const SHOWN_EVENTS = 20;

function n(value: number): string {
  return value.toLocaleString("en");
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${n(count)} ${count === 1 ? one : many}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function readLine(s: RunSummary): string {
  const parts = [`${n(s.valid)} valid`];
  if (s.invalid > 0) {
    parts.push(`${n(s.invalid)} invalid${s.command === "push" && !s.dry_run ? " (not sent)" : ""}`);
  }
  let line = `Read ${plural(s.records, "record")} from ${s.source}: ${parts.join(", ")}`;
  if (s.skipped > 0) line += `; ${n(s.skipped)} left out on purpose`;
  return `${line}.`;
}

function sentLines(s: RunSummary): string[] {
  const sent = s.inserted + s.updated;
  const parts = [`${n(s.inserted)} inserted`, `${n(s.updated)} updated`];
  if (s.rejected > 0) parts.push(`${n(s.rejected)} rejected by the server`);
  const lines = [`Stored ${plural(sent, "event")}: ${parts.join(", ")}.`];
  const extras = [plural(s.batches, "batch", "batches")];
  if (s.retries > 0) extras.push(plural(s.retries, "retry", "retries"));
  if (s.waited_ms > 0) extras.push(`${seconds(s.waited_ms)} waiting (rate limit, backoff)`);
  lines.push(`Took ${seconds(s.duration_ms)} (${extras.join(", ")}).`);
  return lines;
}

function nextStep(s: RunSummary): string | null {
  if (s.not_sent > 0) {
    return `Next: ${
      n(s.not_sent)
    } valid records were not sent; push again (it is safe: events are upserted).`;
  }
  if (s.invalid > 0 || s.rejected > 0) {
    if (s.exit_code === 0) return "Within --max-invalid: the run counts as a success.";
    return s.command === "validate" || s.dry_run
      ? "Next: fix the records listed above and check again."
      : "Next: fix the records listed above and push again (it is safe: events are upserted).";
  }
  if (s.command === "validate") return `Next: events push ${s.source}`;
  if (s.dry_run) return "Dry run: nothing was sent. Next: the same command without --dry-run.";
  return null;
}

const SHOWN_IDS = 10;

function syncLines(s: RunSummary): string[] {
  const sync = s.sync;
  if (!sync) return [];
  if (s.dry_run) {
    const ids = sync.would_delete.slice(0, SHOWN_IDS).join(", ");
    const more = sync.would_delete.length > SHOWN_IDS ? ", … (all with --json)" : "";
    return sync.stale === 0
      ? [
        `--sync: all ${
          plural(sync.stored, "stored event")
        } in scope (${sync.scope}) are in the feed.`,
      ]
      : [
        `--sync would remove ${plural(sync.stale, "event")} of ${
          n(sync.stored)
        } no longer in the ` +
        `feed (${sync.scope}): ${ids}${more}.`,
      ];
  }
  const lines = [];
  if (sync.stored > 0 || sync.stale > 0) {
    lines.push(
      `Removed ${plural(sync.deleted, "event")} no longer in the feed (${sync.scope}; ` +
        `${n(sync.stored)} stored in its window).`,
    );
  }
  if (sync.cancelled_deleted > 0) {
    lines.push(`Deleted ${plural(sync.cancelled_deleted, "cancelled event")}.`);
  }
  return lines;
}

/** The summary lines for people. */
export function summaryLines(s: RunSummary): string[] {
  const lines = [readLine(s)];
  if (s.command === "push" && !s.dry_run) lines.push(...sentLines(s));
  else lines.push(`Took ${seconds(s.duration_ms)}.`);
  lines.push(...syncLines(s));
  const next = nextStep(s);
  if (next) lines.push(next);
  return lines;
}

function eventsTable(events: Record<string, unknown>[], colour: boolean): string {
  return renderTable(
    ["external_id", "title", "starts_at", "timezone", "platform"],
    events.map((e) => [
      cell(e.external_id, 40),
      cell(e.title, 40),
      cell(e.starts_at, 25),
      cell(e.timezone, 20),
      cell(e.platform, 12),
    ]),
    colour,
  );
}

/** Prints the end of a run. */
export function printRun(
  summary: RunSummary,
  shown: Record<string, unknown>[],
  options: ReportOptions,
  terminal: Terminal,
): void {
  if (options.json) {
    const body = summary.dry_run ? { ...summary, events: shown } : summary;
    terminal.out(JSON.stringify(body, null, 2));
    return;
  }
  // Without --verbose each problem was not printed as it came: print them grouped now.
  if (!options.verbose) {
    for (const group of summary.problem_groups) terminal.err(groupLine(group));
  }
  if (summary.dry_run && shown.length > 0) {
    const visible = options.verbose ? shown : shown.slice(0, SHOWN_EVENTS);
    terminal.out(eventsTable(visible, terminal.colour));
    if (visible.length < shown.length) {
      terminal.out(
        `… and ${n(shown.length - visible.length)} more (all of them with --verbose or --json)`,
      );
    }
  }
  if (options.verbose) terminal.out(renderDetails(summary, terminal.colour));
  terminal.out(summaryLines(summary).join("\n"));
}
