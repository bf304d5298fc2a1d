/**
 * The loop behind `push` and `validate`: read, check each record, send valid ones in batches
 * (unless offline), collect every problem with its location, and end with one summary.
 */
import {
  AuthError,
  CliError,
  EXIT,
  GaveUpError,
  InputError,
  RejectedError,
  UsageError,
} from "../errors.ts";
import { openInput } from "../readers/open-input.ts";
import { type CheckedRecord, readRecordBatches } from "../readers/read-records.ts";
import type { Problem } from "../send/problem.ts";
import { Progress } from "../output/progress-report.ts";
import { groupProblems, problemLine } from "../output/problem-groups.ts";
import { emptySummary, type RunSummary } from "../output/run-summary.ts";
import { printRun } from "../output/run-report.ts";
import type { Terminal } from "../output/terminal.ts";
import { type ReadSettings, withinAllowance } from "../settings.ts";
import { RecordSink, type SendOptions } from "./record-sink.ts";
import type { Format } from "../readers/formats.ts";
import type { SyncResult } from "./sync-feed.ts";

/** What to do with the valid records. */
export interface RunOptions {
  command: "push" | "validate";
  read: ReadSettings;
  /** Absent for `validate` and `push --dry-run`: nothing goes over the network. */
  send?: SendOptions;
  /** Called when the input's format is known; may return an observer of every record. */
  onFormat?: (format: Format) => ((record: CheckedRecord) => void) | void;
  /** Called once every record is read and sent, before the summary (deletions of a push). */
  afterSend?: (hooks: {
    onWait: (ms: number, reason: string) => void;
    report: (problem: Problem) => void;
  }) => Promise<SyncResult | null>;
}

/** Counts a record into the summary and reports its problem, if any. */
function counter(
  summary: RunSummary,
  report: (problem: Problem) => void,
  observe?: (record: CheckedRecord) => void,
) {
  return (record: CheckedRecord) => {
    observe?.(record);
    if (record.kind === "warning") {
      summary.warnings++;
      report({ location: record.location, kind: "warning", message: record.message });
    } else if (record.kind === "skipped") {
      summary.skipped++;
      report({ location: record.location, kind: "skipped", message: record.message });
    } else if (record.kind === "valid") {
      summary.records++;
      summary.valid++;
    } else {
      summary.records++;
      summary.invalid++;
      report({ location: record.location, kind: "invalid", message: record.messages.join("; ") });
    }
  };
}

/** Reads every record into the sink; with --strict, sends nothing unless few enough are bad. */
async function feed(
  batches: AsyncGenerator<CheckedRecord[]>,
  sink: RecordSink,
  options: { read: ReadSettings; count: (record: CheckedRecord) => void; tick: () => void },
): Promise<void> {
  const { read, count, tick } = options;
  const summary = sink.summary;
  if (read.strict) {
    const pending: CheckedRecord[] = [];
    for await (const batch of batches) {
      for (const record of batch) {
        count(record);
        if (record.kind === "valid") pending.push(record);
      }
      tick();
    }
    if (!withinAllowance(read.maxInvalid?.allowance ?? null, summary.invalid, summary.records)) {
      throw new RejectedError(`${summary.invalid} invalid record(s); --strict sent nothing`);
    }
    for (const record of pending) {
      if (record.kind === "valid") await sink.add(record.event, record.location);
    }
  } else {
    for await (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const record = batch[i];
        count(record);
        if (record.kind !== "valid") continue;
        const sending = sink.add(record.event, record.location);
        if (sending === null) continue;
        try {
          await sending;
        } catch (error) {
          // Count what will not be sent, so the summary accounts for every record.
          if (error instanceof GaveUpError) {
            for (const rest of batch.slice(i + 1)) count(rest);
            for await (const later of batches) for (const rest of later) count(rest);
          }
          throw error;
        }
        tick();
      }
      tick();
    }
  }
  await sink.flush();
}

/** Runs one input through; throws a CliError for a non-zero exit. */
export async function runRecords(
  spec: string,
  options: RunOptions,
  terminal: Terminal,
): Promise<void> {
  const started = performance.now();
  const { read } = options;
  const summary = emptySummary(options.command, spec);
  summary.dry_run = options.command === "push" && options.send === undefined;
  if (read.maxInvalid) summary.max_invalid = read.maxInvalid.text;
  const progress = new Progress(terminal, {
    tty: terminal.stderrIsTty,
    intervalMs: read.progressIntervalMs,
  });
  const report = (problem: Problem) => {
    summary.problems.push(problem);
    if (read.verbose && !read.json) terminal.err(problemLine(problem));
  };
  let sink: RecordSink | null = null;
  let failure: CliError | null = null;
  try {
    const input = await openInput(spec, { format: read.format, timeoutMs: read.timeoutMs });
    summary.source = input.name;
    summary.format = input.format;
    const observe = options.onFormat?.(input.format) ?? undefined;
    const current = new RecordSink(summary, {
      send: options.send,
      onProblem: report,
      onWait: (ms, reason) =>
        progress.update({ waiting: { reason, untilMs: Date.now() + ms } }, true),
    });
    sink = current;
    const records = readRecordBatches(input.format, input.chunks, {
      ...read,
      sourceName: input.name,
      sourceUrl: read.sourceUrl ?? input.url,
      size: input.size,
      // validate only counts valid records; push and its dry run send or show them.
      keepEvents: options.command === "push",
    });
    const tick = () =>
      progress.update({
        bytesRead: input.bytesRead(),
        totalBytes: input.size,
        records: summary.records,
        sent: current.sent,
      });
    await feed(records, current, { read, count: counter(summary, report, observe), tick });
    const onWait = (ms: number, reason: string) =>
      progress.update({ waiting: { reason, untilMs: Date.now() + ms } }, true);
    const synced = await options.afterSend?.({ onWait, report });
    if (synced) {
      summary.sync = synced.outcome ?? undefined;
      summary.waited_ms += Math.round(synced.waitedMs);
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    failure = error;
  } finally {
    progress.stop();
    await sink?.close();
  }
  summary.duration_ms = Math.round(performance.now() - started);
  conclude(summary, { failure, options, shown: sink?.shown ?? [] }, terminal);
}

/** A failure that makes everything else on screen noise: the error alone is printed. */
function standsAlone(failure: CliError, summary: RunSummary): boolean {
  if (failure instanceof AuthError || failure instanceof UsageError) return true;
  return failure instanceof InputError && summary.records + summary.skipped === 0;
}

/** Decides the outcome, prints it, and throws the failure (if any) for its exit code. */
function conclude(
  summary: RunSummary,
  outcome: { failure: CliError | null; options: RunOptions; shown: Record<string, unknown>[] },
  terminal: Terminal,
): void {
  const { options, shown } = outcome;
  let failure = outcome.failure;
  if (failure !== null && standsAlone(failure, summary)) throw failure;
  const sending = options.send !== undefined;
  const unsent = summary.valid - (summary.inserted + summary.updated + summary.rejected);
  if (sending && failure !== null) summary.not_sent = unsent;
  if (failure === null && sending && unsent !== 0) {
    // Every valid record must be accounted for by the server's counts; anything else is a bug.
    failure = new GaveUpError(
      `The server's counts do not add up: ${unsent} record(s) unaccounted for`,
    );
  }
  const bad = summary.invalid + summary.rejected;
  const allowance = options.read.maxInvalid;
  if (failure === null && !withinAllowance(allowance?.allowance ?? null, bad, summary.records)) {
    failure = new RejectedError(
      `${bad} record(s) invalid or rejected (listed above); ` +
        (allowance
          ? `more than --max-invalid ${allowance.text} allows`
          : "fix them, or let a run tolerate a few with --max-invalid N or --max-invalid P%"),
    );
  }
  if (failure !== null && summary.not_sent > 0) {
    summary.problems.push({
      location: summary.source,
      kind: "not_sent",
      message: `${summary.not_sent} valid record(s) were not sent; pushing again is safe (upserts)`,
    });
  }
  summary.ok = failure === null;
  summary.exit_code = failure?.exitCode ?? EXIT.ok;
  if (failure !== null) [summary.error, summary.error_kind] = [failure.message, failure.kind];
  summary.problem_groups = groupProblems(summary.problems);
  printRun(summary, shown, { json: options.read.json, verbose: options.read.verbose }, terminal);
  if (failure !== null) {
    failure.summaryPrinted = true;
    throw failure;
  }
}
