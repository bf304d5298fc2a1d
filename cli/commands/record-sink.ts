/**
 * Where valid records go: into batches sent to the service (push), into the list a dry run
 * shows, or nowhere (validate). The sender keeps the summary's send figures current.
 */
import { ApiClient } from "../send/api-client.ts";
import { type Batch, BatchSender } from "../send/batch-sender.ts";
import type { Problem } from "../send/problem.ts";
import type { RunSummary } from "../output/run-summary.ts";
import type { ApiSettings } from "../settings.ts";

/** How to send, when sending. */
export interface SendOptions {
  api: ApiSettings;
  batchSize: number;
  maxRetries: number;
}

/** Collects valid records and sends them in batches. */
export class RecordSink {
  readonly client: ApiClient | null = null;
  readonly #sender: BatchSender | null = null;
  readonly #batchSize: number;
  #batch: Batch = { events: [], locations: [] };
  /** The events a dry run would send. */
  readonly shown: Record<string, unknown>[] = [];

  constructor(
    readonly summary: RunSummary,
    options: {
      send?: SendOptions;
      onProblem: (problem: Problem) => void;
      onWait: (ms: number, reason: string) => void;
    },
  ) {
    this.#batchSize = options.send?.batchSize ?? 100;
    if (options.send) {
      this.client = new ApiClient({
        baseUrl: options.send.api.apiUrl,
        apiKey: options.send.api.apiKey,
        timeoutMs: options.send.api.timeoutMs,
      });
      // The sender adds to the summary's own figures as answers come.
      this.#sender = new BatchSender(this.client, {
        maxRetries: options.send.maxRetries,
        onProblem: options.onProblem,
        onWait: options.onWait,
        totals: summary,
      });
    }
  }

  /** Events sent and answered so far. */
  get sent(): number {
    return this.summary.inserted + this.summary.updated + this.summary.rejected;
  }

  /** Adds a valid event; a promise only when that filled a batch that is now being sent. */
  add(event: Record<string, unknown>, location: string): Promise<void> | null {
    if (this.#sender === null && !this.summary.dry_run) return null;
    this.#batch.events.push(event);
    this.#batch.locations.push(location);
    return this.#batch.events.length >= this.#batchSize ? this.flush() : null;
  }

  /** Sends (or, in a dry run, keeps) what is waiting. */
  async flush(): Promise<void> {
    if (this.#batch.events.length === 0) return;
    const current = this.#batch;
    this.#batch = { events: [], locations: [] };
    const sender = this.#sender;
    if (sender === null) {
      if (this.summary.dry_run) this.shown.push(...current.events);
      return;
    }
    await sender.send(current);
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.client?.close();
  }
}
