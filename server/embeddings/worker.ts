/**
 * The embedding worker: claims events that need a vector, embeds them in batches, stores the
 * vectors, and repeats until nothing is left; then sleeps until woken (an upsert, a trust
 * decision) or until the slow safety-net poll. Provider failures back off, honouring Retry-After;
 * the claims of a failed batch are given back, so no work is lost. When no event waits, vectors
 * made from an older version of the embedded text are made again, a batch at a time, the oldest
 * first; each serves search until its replacement is stored.
 */
import type { Sql } from "postgres";
import {
  type ClaimedEvent,
  claimEventsToEmbed,
  claimOutdatedVectors,
  releaseClaims,
} from "../db/embedding-claims.ts";
import { type NewEmbedding, saveEmbeddings } from "../db/embeddings.ts";
import type { VectorAvailability } from "./vector-availability.ts";
import { type EmbeddableEvent, EMBEDDING_TEXT_VERSION, embeddingText } from "./embedding-text.ts";
import { type EmbeddingProvider, EmbeddingProviderError } from "./provider.ts";
import { detectEmbedded } from "../duplicates/detect-duplicates.ts";

export interface EmbeddingWorkerOptions {
  sql: Sql;
  provider: EmbeddingProvider;
  store: VectorAvailability;
  /** Names this worker's claims; unique per process. */
  workerId?: string;
  batchSize?: number;
  /**
   * Batches in flight at once (default: the provider's `concurrency`, else 1). With two, one
   * batch's request to the provider overlaps the storing of the other's vectors.
   */
  concurrency?: number;
  /**
   * Whether there is room to store vectors (the embedded database's disk); while there is not,
   * the worker takes no work and checks again after the poll interval.
   */
  roomToWrite?: () => boolean;
  /** Sleep between checks when nothing woke the worker. */
  pollIntervalMs?: number;
  /** How long a claim holds; past it a dead worker's events are taken again. */
  claimMs?: number;
  /** First wait after a provider failure; doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  log?: (message: string) => void;
  /** Evaluation only: the text embedded for an event, other than embeddingText's. */
  eventText?: (event: EmbeddableEvent) => string;
  /**
   * The version of the embedded text this worker makes (EMBEDDING_TEXT_VERSION); vectors of older
   * versions are re-embedded. Given only with an `eventText` of another version.
   */
  textVersion?: number;
}

/** What the worker is doing, for /healthz. */
export interface WorkerState {
  /** Events given a current vector since start. */
  embedded: number;
  lastError: string | null;
  /** When the worker will try the provider again after a failure. */
  backoffUntil: string | null;
}

/** Vectors stored per statement: each statement holds PGlite's one connection for its length. */
const SAVE_SLICE = 32;

/** Runs the embedding loop in this process. */
export class EmbeddingWorker {
  readonly #o:
    & Required<Omit<EmbeddingWorkerOptions, "log">>
    & { log: (m: string) => void };
  #stopped = true;
  readonly #lanes: Lane[] = [];
  #loop: Promise<void> | null = null;
  #backoffMs = 0;
  /** When the current backoff ends (ms since the epoch); 0 when none runs. */
  #backoffEndsAt = 0;
  #state: WorkerState = { embedded: 0, lastError: null, backoffUntil: null };

  constructor(options: EmbeddingWorkerOptions) {
    this.#o = {
      workerId: `${Deno.hostname()}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`,
      batchSize: options.provider.batchSize ?? 32,
      concurrency: options.provider.concurrency ?? 1,
      roomToWrite: () => true,
      pollIntervalMs: 30_000,
      claimMs: 120_000,
      initialBackoffMs: 1_000,
      maxBackoffMs: 300_000,
      log: (m) => console.error(m),
      eventText: (e: EmbeddableEvent) => embeddingText(e),
      textVersion: EMBEDDING_TEXT_VERSION,
      ...options,
    };
  }

  /** Starts the loop; it runs until `stop()`. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const lanes = Array.from({ length: Math.max(1, this.#o.concurrency) }, () => {
      const lane: Lane = { woken: false, wake: null };
      this.#lanes.push(lane);
      return this.#run(lane);
    });
    this.#loop = Promise.all(lanes).then(() => {
      this.#lanes.length = 0;
    });
  }

  /** Asks the worker to look for work now (after an upsert or a trust decision). */
  wake(): void {
    for (const lane of this.#lanes) {
      lane.woken = true;
      lane.wake?.();
    }
  }

  /** Stops after the batch in hand is stored or given back. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
  }

  /** What the worker is doing now. */
  state(): WorkerState {
    return { ...this.#state };
  }

  /** Embeds until nothing is left to do; returns how many events got a current vector. */
  async runUntilIdle(): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await this.runOnce();
      if (done === null) return total;
      total += done;
    }
  }

  /**
   * Claims and embeds one batch. Returns the number of events stored, or null when there was
   * nothing to claim (or AI search is unavailable, or no room to store vectors). Throws what the
   * provider threw.
   */
  async runOnce(): Promise<number | null> {
    const outcome = await this.#runBatch();
    if ("error" in outcome) throw outcome.error;
    return outcome.stored;
  }

  /** runOnce's work; a failed embedding comes back with how long its claims were given back for. */
  async #runBatch(): Promise<BatchOutcome> {
    const store = await this.#o.store.status();
    if (!store.available || !this.#o.roomToWrite()) return { stored: null };
    const { sql, provider, workerId } = this.#o;
    const claim = {
      worker: workerId,
      model: provider.model,
      limit: this.#o.batchSize,
      claimMs: this.#o.claimMs,
    };
    // Events without a current vector come first: they are missing from AI search, while an
    // outdated vector still serves it.
    let claimed = await claimEventsToEmbed(sql, claim);
    if (claimed.length === 0) {
      claimed = await claimOutdatedVectors(sql, { ...claim, textVersion: this.#o.textVersion });
    }
    if (claimed.length === 0) return { stored: null };
    const items = await Promise.all(claimed.map((e) => this.#prepare(e)));
    const toEmbed = items.filter((i) => i.text !== null);
    try {
      const vectors = await provider.embed(toEmbed.map((i) => i.text!));
      toEmbed.forEach((item, n) => (item.embedding.vector = vectors[n]));
    } catch (err) {
      const retryable = !(err instanceof EmbeddingProviderError) || err.retryable;
      const delayMs = retryable ? this.#backoff(err) : 0;
      await releaseClaims(sql, workerId, claimed.map((e) => e.id), {
        delayMs,
        error: err instanceof Error ? err.message : String(err),
        countAttempt: !retryable,
      }).catch(() => {});
      return { error: err, releasedMs: delayMs };
    }
    const stored = await this.#store(items.map((item) => item.embedding));
    return { stored: stored.length };
  }

  /**
   * Stores a batch's vectors (and ends its claims); the one place where events get a current
   * vector. Returns their ids.
   */
  async #store(embeddings: NewEmbedding[]): Promise<string[]> {
    const stored: string[] = [];
    // Storing a vector updates the HNSW index, which is the costly part of a write; on PGlite
    // every request waits for the one connection meanwhile, so a large batch goes in slices.
    for (let i = 0; i < embeddings.length; i += SAVE_SLICE) {
      stored.push(
        ...await saveEmbeddings(this.#o.sql, {
          worker: this.#o.workerId,
          model: this.#o.provider.model,
          textVersion: this.#o.textVersion,
          items: embeddings.slice(i, i + SAVE_SLICE),
        }),
      );
    }
    // Duplicates only vectors reveal (titles sharing no word) are found once both have one. The
    // vectors are stored either way: a failure here leaves the pairs ingestion found.
    await detectEmbedded(this.#o.sql, stored).catch((err) =>
      this.#o.log(
        `Cannot detect duplicates by vectors: ${err instanceof Error ? err.message : err}`,
      )
    );
    this.#state.embedded += stored.length;
    return stored;
  }

  /** The text to embed, or null when the existing vector was made from the same text. */
  async #prepare(e: ClaimedEvent): Promise<{ text: string | null; embedding: NewEmbedding }> {
    const text = this.#o.eventText(e);
    const textHash = await sha256Hex(text);
    const reusable = e.vector_model === this.#o.provider.model && e.vector_text_hash === textHash;
    return {
      text: reusable ? null : text,
      embedding: { eventId: e.id, contentHash: e.content_hash, textHash, vector: null },
    };
  }

  /**
   * How long to wait after a retryable failure. A failure within a running backoff (another lane's
   * batch failing against the same provider) waits for that backoff instead of doubling it.
   */
  #backoff(err: unknown): number {
    const now = Date.now();
    if (this.#backoffEndsAt > now) return this.#backoffEndsAt - now;
    const base = this.#backoffMs === 0
      ? this.#o.initialBackoffMs
      : Math.min(this.#backoffMs * 2, this.#o.maxBackoffMs);
    const asked = err instanceof EmbeddingProviderError ? err.retryAfterMs ?? 0 : 0;
    this.#backoffMs = Math.min(Math.max(base, asked), Math.max(this.#o.maxBackoffMs, asked));
    this.#backoffEndsAt = now + this.#backoffMs;
    this.#state.backoffUntil = new Date(this.#backoffEndsAt).toISOString();
    return this.#backoffMs;
  }

  async #run(lane: Lane): Promise<void> {
    while (!this.#stopped) {
      // No lane asks the provider again while a backoff runs.
      const backingOff = this.#backoffEndsAt - Date.now();
      if (backingOff > 0) {
        await this.#sleep(lane, backingOff, false);
        continue;
      }
      lane.woken = false;
      const outcome = await this.#runBatch().catch((error) => ({ error, releasedMs: 0 }));
      if (!("error" in outcome)) {
        this.#backoffMs = 0;
        this.#backoffEndsAt = 0;
        this.#state.backoffUntil = null;
        if (outcome.stored !== null) {
          this.#state.lastError = null;
          continue;
        }
      } else {
        const { error: err, releasedMs } = outcome;
        const message = err instanceof Error ? err.message : String(err);
        this.#state.lastError = message;
        this.#o.log(`Embedding worker: ${message}`);
        const retryable = !(err instanceof EmbeddingProviderError) || err.retryable;
        // A non-retryable failure is booked on the events; the others may still go through.
        // At least as long as this batch's claims were given back for (counted by the database
        // from before this sleep starts), or the lane would wake to find them still held.
        const wait = retryable
          ? Math.max(this.#backoff(err), releasedMs)
          : this.#o.initialBackoffMs;
        if (!retryable) this.#state.backoffUntil = new Date(Date.now() + wait).toISOString();
        await this.#sleep(lane, wait, false);
        continue;
      }
      if (!lane.woken) await this.#sleep(lane, this.#o.pollIntervalMs, true);
    }
  }

  /** Sleeps for `ms`; a wake cuts it short only when `wakeable` (not during a backoff). */
  #sleep(lane: Lane, ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      lane.wake = () => {
        if (wakeable || this.#stopped) done();
      };
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** What one batch came to: events stored (null: nothing to do), or the failure of its embedding. */
type BatchOutcome = { stored: number | null } | { error: unknown; releasedMs: number };

/** One of the worker's concurrent loops, and how to cut its sleep short. */
interface Lane {
  woken: boolean;
  wake: (() => void) | null;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
