/**
 * Counters of a load benchmark, one set per kind of request: latencies of the requests that began
 * in the measured window, answers by status, errors by cause. Errors count from the first
 * request on (a failure during warm-up is still a failure); latencies and throughput only after
 * warm-up, when caches, pools and prepared statements are what they will stay.
 */
import { percentile } from "./stats.ts";

/** What became of one request. */
export type Outcome =
  | { ok: true; status: number }
  /** Refused by a rate limit and waited for: the limit working, not an error. */
  | { ok: false; rateLimited: true; status: 429 }
  /** `cause` is the status ("500"), "timeout", "network" or what was wrong with the answer. */
  | { ok: false; rateLimited?: false; cause: string };

/** One kind of request's counters. */
export interface KindStats {
  kind: string;
  /** Requests that began in the measured window and got an answer that was not an error. */
  latenciesMs: number[];
  /** Answers (and failures) by status or cause, over the whole run. */
  byStatus: Map<string, number>;
  errors: number;
  rateLimited: number;
}

/** A kind's figures for the report. */
export interface KindSummary {
  kind: string;
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  rateLimited: number;
  byStatus: string;
}

/** Collects outcomes; `measuring` turns on when warm-up ends. */
export class LoadRecorder {
  readonly #kinds = new Map<string, KindStats>();
  #measuringSince: number | null = null;

  /** Declares the kinds in the order the report lists them. */
  constructor(kinds: string[]) {
    for (const kind of kinds) this.#stats(kind);
  }

  /** From now on requests count toward latencies and throughput. */
  startMeasuring(): void {
    this.#measuringSince = performance.now();
  }

  /** Whether a request that began at `startedAt` (performance.now()) is in the measured window. */
  measured(startedAt: number): boolean {
    return this.#measuringSince !== null && startedAt >= this.#measuringSince;
  }

  /** Records the outcome of a request of `kind` that began at `startedAt`. */
  record(kind: string, startedAt: number, outcome: Outcome): void {
    const stats = this.#stats(kind);
    const label = "cause" in outcome ? outcome.cause : String(outcome.status);
    stats.byStatus.set(label, (stats.byStatus.get(label) ?? 0) + 1);
    if (outcome.ok) {
      if (this.measured(startedAt)) stats.latenciesMs.push(performance.now() - startedAt);
    } else if (outcome.rateLimited) {
      stats.rateLimited++;
    } else {
      stats.errors++;
    }
  }

  /** Every kind's figures over a measured window of `seconds`. */
  summaries(seconds: number): KindSummary[] {
    return [...this.#kinds.values()].map((s) => ({
      kind: s.kind,
      count: s.latenciesMs.length,
      perSecond: s.latenciesMs.length / seconds,
      p50: percentile(s.latenciesMs, 50),
      p95: percentile(s.latenciesMs, 95),
      p99: percentile(s.latenciesMs, 99),
      errors: s.errors,
      rateLimited: s.rateLimited,
      byStatus: [...s.byStatus.entries()].sort(([a], [b]) => a.localeCompare(b))
        .map(([label, n]) => `${label}: ${n}`).join(", "),
    }));
  }

  /** Errors of every kind, over the whole run. */
  totalErrors(): number {
    return [...this.#kinds.values()].reduce((sum, s) => sum + s.errors, 0);
  }

  #stats(kind: string): KindStats {
    let stats = this.#kinds.get(kind);
    if (!stats) {
      stats = { kind, latenciesMs: [], byStatus: new Map(), errors: 0, rateLimited: 0 };
      this.#kinds.set(kind, stats);
    }
    return stats;
  }
}
