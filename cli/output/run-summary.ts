/** The outcome of `push` or `validate`: what was read, sent and stored, for people and for CI. */
import type { Problem } from "../send/problem.ts";
import { renderPairs } from "./tables.ts";

/** Every figure of a run; `--json` prints exactly this object. */
export interface RunSummary {
  command: "push" | "validate";
  source: string;
  format: string;
  dry_run: boolean;
  records: number;
  valid: number;
  invalid: number;
  skipped: number;
  batches: number;
  inserted: number;
  updated: number;
  rejected: number;
  retries: number;
  not_sent: number;
  duration_ms: number;
  request_ms: number;
  waited_ms: number;
  exit_code: number;
  error?: string;
  problems: Problem[];
}

/** A summary with every count at zero. */
export function emptySummary(command: RunSummary["command"], source: string): RunSummary {
  return {
    command,
    source,
    format: "",
    dry_run: false,
    records: 0,
    valid: 0,
    invalid: 0,
    skipped: 0,
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
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The summary as a table for people. */
export function renderSummary(s: RunSummary, colour: boolean): string {
  const pairs: [string, string | number][] = [
    ["Source", `${s.source} (${s.format || "?"})`],
    ["Records read", s.records],
    ["Valid", s.valid],
    ["Invalid (skipped)", s.invalid],
    ["Left out on purpose (see notes)", s.skipped],
  ];
  if (s.command === "push" && !s.dry_run) {
    pairs.push(
      ["Batches sent", s.batches],
      ["Inserted", s.inserted],
      ["Updated", s.updated],
      ["Rejected by the server", s.rejected],
      ["Retries", s.retries],
    );
    if (s.not_sent > 0) pairs.push(["Not sent", s.not_sent]);
    if (s.waited_ms > 0) pairs.push(["Waited (rate limit, backoff)", seconds(s.waited_ms)]);
  }
  if (s.dry_run) pairs.push(["Would send", `${s.valid} events (dry run, nothing sent)`]);
  pairs.push(["Time taken", seconds(s.duration_ms)]);
  return renderPairs(pairs, colour);
}

/** One problem as a line for stderr. */
export function problemLine(problem: Problem): string {
  const label = problem.kind === "not_sent" ? "not sent" : problem.kind;
  return `${problem.location}: ${label}: ${problem.message}`;
}
