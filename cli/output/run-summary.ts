/** The outcome of `push` or `validate`: what was read, sent and stored, for people and for CI. */
import type { Problem } from "../send/problem.ts";
import type { ProblemGroup } from "./problem-groups.ts";
import { renderPairs } from "./tables.ts";

/** Every figure of a run; `--json` prints exactly this object. */
export interface RunSummary {
  ok: boolean;
  command: "push" | "validate";
  source: string;
  format: string;
  dry_run: boolean;
  records: number;
  valid: number;
  invalid: number;
  skipped: number;
  warnings: number;
  batches: number;
  inserted: number;
  updated: number;
  rejected: number;
  retries: number;
  not_sent: number;
  /** `--max-invalid` as given, when given. */
  max_invalid?: string;
  /** `--sync`: what was (or, with --dry-run, would be) removed. */
  sync?: SyncOutcome;
  duration_ms: number;
  request_ms: number;
  waited_ms: number;
  exit_code: number;
  error?: string;
  error_kind?: string;
  /** Every problem, each with its location. */
  problems: Problem[];
  /** The same problems, alike ones together. */
  problem_groups: ProblemGroup[];
}

/** What `--sync` did. */
export interface SyncOutcome {
  scope: string;
  stored: number;
  stale: number;
  deleted: number;
  cancelled_deleted: number;
  would_delete: string[];
}

/** A summary with every count at zero. */
export function emptySummary(command: RunSummary["command"], source: string): RunSummary {
  return {
    ok: true,
    command,
    source,
    format: "",
    dry_run: false,
    records: 0,
    valid: 0,
    invalid: 0,
    skipped: 0,
    warnings: 0,
    batches: 0,
    inserted: 0,
    updated: 0,
    rejected: 0,
    retries: 0,
    not_sent: 0,
    duration_ms: 0,
    request_ms: 0,
    waited_ms: 0,
    exit_code: 0,
    problems: [],
    problem_groups: [],
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Every figure as a table, for --verbose. */
export function renderDetails(s: RunSummary, colour: boolean): string {
  const pairs: [string, string | number][] = [
    ["Source", `${s.source} (${s.format || "?"})`],
    ["Records read", s.records],
    ["Valid", s.valid],
    ["Invalid (skipped)", s.invalid],
    ["Left out on purpose (see notes)", s.skipped],
    ["Warnings", s.warnings],
  ];
  if (s.command === "push" && !s.dry_run) {
    pairs.push(
      ["Batches sent", s.batches],
      ["Inserted", s.inserted],
      ["Updated", s.updated],
      ["Rejected by the server", s.rejected],
      ["Retries", s.retries],
      ["Not sent", s.not_sent],
      ["Time in requests", seconds(s.request_ms)],
      ["Waited (rate limit, backoff)", seconds(s.waited_ms)],
    );
  }
  if (s.sync) {
    pairs.push(
      ["Sync scope", s.sync.scope],
      ["Stored in that scope", s.sync.stored],
      ["No longer in the feed", s.sync.stale],
      ["Deleted", s.sync.deleted + s.sync.cancelled_deleted],
    );
  }
  if (s.dry_run) pairs.push(["Would send", `${s.valid} events (dry run, nothing sent)`]);
  pairs.push(["Time taken", seconds(s.duration_ms)]);
  return renderPairs(pairs, colour);
}
