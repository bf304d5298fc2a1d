/**
 * Sends batches to POST /api/v1/events through the CLI's one retry loop (upserts make a repeat
 * harmless): what a 200 stored, what a 400 refused (only its own batch), a 413 split in halves.
 */
import { BatchResult, ValidationErrorBody } from "../../shared/api-schemas.ts";
import { GaveUpError, UsageError } from "../errors.ts";
import { type ApiClient, type ApiResponse, errorText } from "./api-client.ts";
import type { Problem } from "./problem.ts";
import { type RequestFigures, RetryingRequests } from "./retrying-request.ts";

/** Events to send together, with where each came from. */
export interface Batch {
  events: Record<string, unknown>[];
  locations: string[];
}

/** Running totals of what the server did (a run's summary has these fields). */
export interface SendTotals extends RequestFigures {
  batches: number;
  inserted: number;
  updated: number;
  rejected: number;
}

/** How to send, and where the totals go. */
export interface SenderOptions {
  maxRetries: number;
  onProblem: (problem: Problem) => void;
  onWait?: (ms: number, reason: string) => void;
  totals: SendTotals;
}

const PATH = "/api/v1/events";

/** Sends batches one after another, adding to the totals it was given. */
export class BatchSender {
  readonly #requests: RetryingRequests;

  constructor(readonly client: ApiClient, readonly options: SenderOptions) {
    this.#requests = new RetryingRequests(client, {
      maxRetries: options.maxRetries,
      onWait: options.onWait,
      figures: options.totals,
    });
  }

  /** Sends one batch until the server has decided on it; throws when it must stop. */
  async send(batch: Batch): Promise<void> {
    const wrongUrl = (response: ApiResponse): never => {
      throw new UsageError(
        `Cannot push to ${this.client.baseUrl}${PATH}: the server answered ${response.status}; check --api-url or EVENTS_API_URL`,
      );
    };
    const outcome = await this.#requests.send<"decided" | "too large">({
      method: "POST",
      path: PATH,
      body: { events: batch.events },
      what: `send the batch starting at ${batch.locations[0]}`,
      forbidden: "push events",
      on: {
        200: (response) => {
          this.#accepted(batch, response);
          return { done: "decided" };
        },
        400: (response) => {
          this.#refused(batch, response);
          return { done: "decided" };
        },
        // A single event too large is left to the shared rules, which give up on it.
        413: () => batch.events.length > 1 ? { done: "too large" } : null,
        404: wrongUrl,
        405: wrongUrl,
      },
    });
    if (outcome === "too large") await this.#split(batch);
  }

  #accepted(batch: Batch, response: ApiResponse): void {
    const parsed = BatchResult.safeParse(response.body);
    if (!parsed.success) {
      throw new GaveUpError(
        `Cannot read the server's answer to the batch starting at ${batch.locations[0]}`,
      );
    }
    const { inserted, updated, errors } = parsed.data.data;
    this.options.totals.batches++;
    this.options.totals.inserted += inserted;
    this.options.totals.updated += updated;
    this.options.totals.rejected += errors.length;
    for (const error of errors) {
      this.options.onProblem({
        location: batch.locations[error.index] ?? `batch item ${error.index}`,
        kind: "rejected",
        message: `${error.message} (${error.code})`,
      });
    }
  }

  /** A 400: nothing of the batch was stored; report each item's problems. */
  #refused(batch: Batch, response: ApiResponse): void {
    this.options.totals.batches++;
    this.options.totals.rejected += batch.events.length;
    const parsed = ValidationErrorBody.safeParse(response.body);
    const byIndex = new Map<number, string[]>();
    const general: string[] = [];
    for (const detail of parsed.success ? parsed.data.details : []) {
      const [root, index, ...rest] = detail.path;
      if (root === "events" && typeof index === "number") {
        const list = byIndex.get(index) ?? [];
        list.push(rest.length > 1 ? `${detail.message} (at ${rest.join(".")})` : detail.message);
        byIndex.set(index, list);
      } else {
        general.push(detail.message);
      }
    }
    if (!parsed.success) general.push(errorText(response));
    batch.locations.forEach((location, i) => {
      const own = byIndex.get(i);
      this.options.onProblem({
        location,
        kind: "rejected",
        message: own
          ? own.join("; ")
          : `not stored: the server refused the whole batch (400)${
            general.length ? `: ${general.join("; ")}` : ""
          }`,
      });
    });
  }

  /** A 413: the body was too large; send each half on its own. */
  async #split(batch: Batch): Promise<void> {
    const half = Math.ceil(batch.events.length / 2);
    await this.send({
      events: batch.events.slice(0, half),
      locations: batch.locations.slice(0, half),
    });
    await this.send({ events: batch.events.slice(half), locations: batch.locations.slice(half) });
  }
}
