/**
 * The loop behind `push` and `validate`: read, check each record, send valid ones in batches
 * (unless offline), report every problem with its location, and end with one summary.
 */
import { CliError, EXIT, GaveUpError, RejectedError } from "../errors.ts";
import { openInput } from "../readers/open-input.ts";
import { type CheckedRecord, readRecords } from "../readers/read-records.ts";
import { ApiClient } from "../send/api-client.ts";
import { type Batch, BatchSender } from "../send/batch-sender.ts";
import type { Problem } from "../send/problem.ts";
import { ProgressBar } from "../output/progress.ts";
import {
  emptySummary,
  problemLine,
  renderSummary,
  type RunSummary,
} from "../output/run-summary.ts";
import { cell, renderTable } from "../output/tables.ts";
import type { Terminal } from "../output/terminal.ts";
import type { ApiSettings, ReadSettings } from "../settings.ts";

/** What to do with the valid records. */
export interface RunOptions {
  command: "push" | "validate";
  read: ReadSettings;
  /** Absent for `validate` and `push --dry-run`: nothing goes over the network. */
  send?: { api: ApiSettings; batchSize: number; maxRetries: number };
}

/** Runs one input through; throws a CliError (already summarised) for a non-zero exit. */
export async function runRecords(
  spec: string,
  options: RunOptions,
  terminal: Terminal,
): Promise<void> {
  const started = performance.now();
  const { read } = options;
  const summary = emptySummary(options.command, spec);
  summary.dry_run = options.command === "push" && options.send === undefined;
  const shown: Record<string, unknown>[] = [];
  const progress = new ProgressBar(terminal, terminal.stderrIsTty);
  const report = (problem: Problem) => {
    summary.problems.push(problem);
    if (!read.json) terminal.err(problemLine(problem));
  };
  let client: ApiClient | null = null;
  let failure: CliError | null = null;
  let pending: CheckedRecord[] = [];

  try {
    const input = await openInput(spec, { format: read.format, timeoutMs: read.timeoutMs });
    summary.source = input.name;
    summary.format = input.format;
    const records = readRecords(input.format, input.chunks, {
      ...read,
      sourceName: input.name,
      sourceUrl: read.sourceUrl ?? input.url,
    });
    const draw = (waiting?: string) =>
      progress.update({
        bytesRead: input.bytesRead(),
        totalBytes: input.size,
        records: summary.records,
        sent: summary.inserted + summary.updated + summary.rejected,
        waiting,
      }, waiting !== undefined);

    let sender: BatchSender | null = null;
    if (options.send) {
      client = new ApiClient({
        baseUrl: options.send.api.apiUrl,
        apiKey: options.send.api.apiKey,
        timeoutMs: options.send.api.timeoutMs,
      });
      sender = new BatchSender(client, {
        maxRetries: options.send.maxRetries,
        onProblem: report,
        onWait: (ms, reason) => draw(`waiting ${(ms / 1000).toFixed(1)} s (${reason})`),
      });
    }
    const batchSize = options.send?.batchSize ?? 100;
    let batch: Batch = { events: [], locations: [] };
    const flush = async () => {
      if (batch.events.length === 0) return;
      const current = batch;
      batch = { events: [], locations: [] };
      if (sender) {
        try {
          await sender.send(current);
        } finally {
          Object.assign(summary, {
            batches: sender.totals.batches,
            inserted: sender.totals.inserted,
            updated: sender.totals.updated,
            rejected: sender.totals.rejected,
            retries: sender.totals.retries,
            request_ms: Math.round(sender.totals.requestMs),
            waited_ms: Math.round(sender.totals.waitedMs),
          });
        }
      } else if (summary.dry_run) {
        shown.push(...current.events);
      }
      draw();
    };
    const take = async (record: CheckedRecord) => {
      if (record.kind === "valid") {
        batch.events.push(record.event);
        batch.locations.push(record.location);
        if (batch.events.length >= batchSize) await flush();
      }
    };
    const count = (record: CheckedRecord) => {
      if (record.kind === "warning") {
        report({ location: record.location, kind: "warning", message: record.message });
        return;
      }
      if (record.kind === "skipped") {
        summary.skipped++;
        report({ location: record.location, kind: "skipped", message: record.message });
        return;
      }
      summary.records++;
      if (record.kind === "valid") summary.valid++;
      else {
        summary.invalid++;
        report({ location: record.location, kind: "invalid", message: record.messages.join("; ") });
      }
      draw();
    };

    if (read.strict) {
      // Strict: nothing is sent unless every record is valid, so read everything first.
      for await (const record of records) {
        count(record);
        if (record.kind === "valid") pending.push(record);
      }
      if (summary.invalid > 0) {
        throw new RejectedError(`${summary.invalid} invalid record(s); --strict sent nothing`);
      }
      for (const record of pending) await take(record);
      pending = [];
    } else {
      for await (const record of records) {
        count(record);
        try {
          await take(record);
        } catch (error) {
          if (error instanceof GaveUpError) {
            // Count what will not be sent, so the summary accounts for every record.
            for await (const rest of records) count(rest);
          }
          throw error;
        }
      }
    }
    await flush();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    failure = error;
    summary.error = error.message;
  } finally {
    progress.clear();
    await client?.close();
  }

  summary.duration_ms = Math.round(performance.now() - started);
  const sending = options.send !== undefined;
  const unsent = summary.valid - (summary.inserted + summary.updated + summary.rejected);
  if (sending && failure !== null) summary.not_sent = unsent;
  if (failure === null && sending && unsent !== 0) {
    // Every valid record must be accounted for by the server's counts; anything else is a bug.
    failure = new GaveUpError(
      `The server's counts do not add up: ${unsent} record(s) unaccounted for`,
    );
    summary.error = failure.message;
  }
  if (failure === null && (summary.invalid > 0 || summary.rejected > 0)) {
    failure = new RejectedError(
      `${summary.invalid} invalid and ${summary.rejected} rejected record(s); see the lines above`,
    );
  }
  summary.exit_code = failure?.exitCode ?? EXIT.ok;
  if (failure !== null && summary.not_sent > 0) {
    summary.problems.push({
      location: summary.source,
      kind: "not_sent",
      message: `${summary.not_sent} valid record(s) were not sent; pushing again is safe (upserts)`,
    });
  }
  printSummary(summary, shown, options.read.json, terminal);
  if (failure !== null) {
    failure.summaryPrinted = true;
    throw failure;
  }
}

function printSummary(
  summary: RunSummary,
  shown: Record<string, unknown>[],
  json: boolean,
  terminal: Terminal,
) {
  if (json) {
    terminal.out(
      JSON.stringify(summary.dry_run ? { ...summary, events: shown } : summary, null, 2),
    );
    return;
  }
  if (summary.dry_run && shown.length > 0) {
    terminal.out(renderTable(
      ["external_id", "title", "starts_at", "timezone", "platform"],
      shown.map((
        e,
      ) => [
        cell(e.external_id, 40),
        cell(e.title, 40),
        cell(e.starts_at, 25),
        cell(e.timezone, 20),
        cell(e.platform, 12),
      ]),
      terminal.stdoutIsTty,
    ));
  }
  terminal.out(renderSummary(summary, terminal.stdoutIsTty));
}
