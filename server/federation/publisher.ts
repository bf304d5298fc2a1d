/**
 * The worker that drains federation's outbox: events the triggers recorded as changed are looked
 * at again (reconcile.ts) once duplicate detection has settled, in short transactions that also
 * remove their pending rows; then the recorded activities are handed to Fedify's delivery
 * queue, one per remote server (shared inboxes), and marked sent. A crash between the two steps
 * leaves activities unsent, and they go at the next run: nothing is lost, a delivery may repeat.
 */
import type { Sql } from "postgres";
import type { Context, Federation } from "@fedify/fedify";
import type { Recipient } from "@fedify/vocab";
import { dropPending, markSent, takePending, unsentActivities } from "../db/federation-objects.ts";
import type { ActivityRecord } from "../db/federation-objects.ts";
import { listFollowers } from "../db/federation-followers.ts";
import { reconcileEvent } from "./reconcile.ts";
import { activityOf } from "./activities.ts";
import { EVENTS_ACTOR } from "./actor-names.ts";

/** How the publisher runs. */
export interface PublisherOptions {
  /** Resolves once the duplicates of every batch committed so far are detected. */
  settled?: () => Promise<void>;
  /**
   * Resolves when a transaction or a batch of sending may start: in the service, once no request
   * has been in flight for a moment (server/serve.ts, backgroundTurn).
   */
  turn?: () => Promise<void>;
  /** How often to look for changes other servers (or missed wakes) left. */
  pollMs?: number;
}

const PENDING_BATCH = 50;
/**
 * A transaction looks at events for about this long, then commits. On the embedded database, a
 * single session, every read waits for the transaction under way: 50 events at once held it for
 * about a second, and text search after a push of 100,000 events took 1 s a query.
 */
const TRANSACTION_MS = 15;
const SEND_BATCH = 100;
const FOLLOWER_PAGE = 5_000;
/** Followers of one actor handed to Fedify for one activity at most. */
const MAX_FOLLOWERS = 1_000_000;

/** See the module comment. */
export class Publisher {
  readonly #sql: Sql;
  readonly #federation: Federation<void>;
  readonly #settled: () => Promise<void>;
  readonly #turn: () => Promise<void>;
  readonly #pollMs: number;
  #origin: URL | null;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: ReturnType<typeof setInterval> | null = null;
  #stopped = false;

  constructor(
    sql: Sql,
    federation: Federation<void>,
    options: PublisherOptions & { origin?: string },
  ) {
    this.#sql = sql;
    this.#federation = federation;
    this.#settled = options.settled ?? (() => Promise.resolve());
    this.#turn = options.turn ?? (() => Promise.resolve());
    this.#pollMs = options.pollMs ?? 2_000;
    this.#origin = options.origin ? new URL(options.origin) : null;
  }

  /** The origin ids are made under when PUBLIC_URL is unset: the server's own address. */
  useOrigin(origin: string): void {
    this.#origin ??= new URL(origin);
    this.wake();
  }

  start(): void {
    this.wake();
    this.#timer ??= setInterval(() => this.wake(), this.#pollMs);
  }

  /** Something changed: run now (or again after the run under way). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().catch((err) => {
      console.error("Cannot publish to the fediverse:", err);
    }).finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  /** Resolves once what is recorded now is looked at and sent (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }

  async #drain(): Promise<void> {
    await this.#settled();
    while (!this.#stopped) {
      const pending = [...await takePending(this.#sql, PENDING_BATCH)];
      if (pending.length === 0) break;
      while (pending.length > 0 && !this.#stopped) {
        await this.#turn();
        await this.#sql.begin(async (transaction) => {
          const tx = transaction as unknown as Sql;
          const started = performance.now();
          const done: string[] = [];
          do {
            const [eventId, rowIds] = pending.shift()!;
            await reconcileEvent(tx, eventId);
            done.push(...rowIds);
          } while (pending.length > 0 && performance.now() - started < TRANSACTION_MS);
          await dropPending(tx, done);
        });
      }
    }
    const origin = this.#origin;
    if (origin === null) return;
    const ctx = this.#federation.createContext(origin, undefined);
    while (!this.#stopped) {
      await this.#turn();
      const batch = await unsentActivities(this.#sql, SEND_BATCH);
      // Most activities of a batch go to the same followers: read them once per batch.
      const recipients = new Map<string, Promise<Recipient[]>>();
      // Marked sent together once handed over: a crash before repeats the batch's deliveries.
      for (const row of batch) await this.#send(ctx, row, recipients);
      if (batch.length > 0) await markSent(this.#sql, batch.map((row) => row.id));
      if (batch.length < SEND_BATCH) break;
    }
  }

  /**
   * Create goes to the followers of `events`, an Announce to its actor's; Update and Delete to
   * everyone who got the object either way. Fedify makes one delivery per shared inbox.
   */
  async #send(
    ctx: Context<void>,
    row: ActivityRecord,
    known: Map<string, Promise<Recipient[]>>,
  ): Promise<void> {
    const actors = row.kind === "Update" || row.kind === "Delete"
      ? [EVENTS_ACTOR, ...row.object.announced_by]
      : [row.actor_handle];
    const key = [...actors].sort().join(" ");
    if (!known.has(key)) known.set(key, this.#recipients(actors));
    const recipients = await known.get(key)!;
    if (recipients.length === 0) return;
    await ctx.sendActivity({ identifier: row.actor_handle }, recipients, activityOf(ctx, row), {
      preferSharedInbox: true,
      orderingKey: row.object.id,
    });
  }

  async #recipients(actors: string[]): Promise<Recipient[]> {
    const all: Recipient[] = [];
    let after: string | undefined;
    while (all.length < MAX_FOLLOWERS) {
      const page = await listFollowers(this.#sql, { actors, after, limit: FOLLOWER_PAGE });
      for (const f of page) {
        all.push({
          id: new URL(f.follower_id),
          inboxId: new URL(f.inbox),
          endpoints: f.shared_inbox ? { sharedInbox: new URL(f.shared_inbox) } : null,
        });
      }
      if (page.length < FOLLOWER_PAGE) break;
      after = page[page.length - 1].follower_id;
    }
    return all;
  }
}
