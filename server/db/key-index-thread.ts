/**
 * The key indexes (key-index.ts) live on a thread of their own
 * (server/duplicates/key-index-worker.ts, which also runs detection's comparisons there; it is
 * started by its address, not imported), one for the process. Their heap (about 1 GB at a million
 * listings) is out of the server's way there, and their work runs on another core: on PGlite,
 * which runs statements on the server's own thread, a pushed batch's comparison with the index
 * (its listings' keys, the lookups, the matcher) runs while the database stores the batch
 * (server/duplicates/early-comparison.ts).
 *
 * Each index is reached through a `KeyIndexClient`. What changes an index is queued and sent with
 * the next request, not waited for (the thread runs them in order, so a later lookup sees them);
 * what reads one is a request the thread answers. The client keeps what detection asks of an index
 * at each lock without a round trip: whether it is built, the transactions whose sets wait to be
 * settled, and a version that moves with each change sent.
 *
 * On PostgreSQL other servers may share the database: an index there also learns the sets they
 * wrote before each lookup (`catchUp`), by the number each write of a set takes (migration 025).
 */
import type { Sql } from "postgres";
import type { Hits, IndexedSet, IndexProbe } from "./key-index.ts";
import { matchColumns, type MatchRow } from "./match-keys.ts";
import { logProblem } from "../log-line.ts";

/** An operation on an index, and its arguments. */
export type IndexOperation = [op: string, args: unknown[]];

/**
 * A message to the thread: operations on the index `index`, run in order; with an `id`, the last
 * one's result is the answer.
 */
export interface IndexRequest {
  id?: number;
  index: string;
  ops: IndexOperation[];
}

/** The thread's answer to a request, or word that it failed (an index missed a change). */
export type IndexReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { failed: string };

// Rows of event_key_sets read at a time while an index is built.
const PAGE = 10_000;

/** A stored set as the index reads it, with its event's contributor and what detection reads. */
type SetRow = MatchRow & {
  event_id: string;
  keys: string[];
  first_day: number;
  last_day: number;
  lat: number;
  contributor_id: string;
  platform: string;
};

/** The columns of SetRow, of event_key_sets as `s` and events as `e`. */
const setColumns = (sql: Sql) =>
  sql`s.event_id, s.keys, s.first_day, s.last_day, s.lat, e.contributor_id, e.platform,
      ${matchColumns(sql)}`;

function indexedSetOf(r: SetRow): IndexedSet {
  const { event_id, keys, first_day, last_day, lat, contributor_id, platform, ...row } = r;
  return {
    eventId: event_id,
    keys: keys.map(Number),
    firstDay: first_day,
    lastDay: last_day,
    degree: lat,
    owner: contributor_id,
    platform,
    row: { ...row, id: event_id },
  };
}

/** The one thread holding the process's indexes, started when an index is first used. */
class IndexThread {
  #worker: Worker | null = null;
  #next = 1;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  /** Indexes open on it: the thread stops when none is. */
  users = 0;

  #started(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = new Worker(new URL("../duplicates/key-index-worker.ts", import.meta.url).href, {
      type: "module",
    });
    worker.onmessage = (e: MessageEvent<IndexReply>) => {
      const reply = e.data;
      if ("failed" in reply) {
        this.#crashed(reply.failed);
        return;
      }
      const waiting = this.#pending.get(reply.id);
      if (waiting === undefined) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.#crashed(e.message);
    };
    this.#worker = worker;
    return worker;
  }

  #crashed(reason: string): void {
    logProblem({ level: "error", problem: "the key index's thread failed", error: reason });
    this.#failed(`the key index's thread failed: ${reason}`);
  }

  /** Every index is lost with the thread: what waits fails, and a new thread starts empty. */
  #failed(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const waiting of this.#pending.values()) waiting.reject(new Error(reason));
    this.#pending.clear();
    for (const index of open.values()) index.lost();
  }

  post(index: string, ops: IndexOperation[]): void {
    this.#started().postMessage({ index, ops } satisfies IndexRequest);
  }

  request<T>(index: string, ops: IndexOperation[]): Promise<T> {
    const id = this.#next++;
    const answer = new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    this.#started().postMessage({ id, index, ops } satisfies IndexRequest);
    return answer;
  }

  /** Drops an index from the thread, if it runs. */
  drop(index: string): void {
    if (this.#worker !== null) this.post(index, [["close", []]]);
  }

  stop(): void {
    this.#failed("the key index's thread was stopped");
  }
}

const thread = new IndexThread();

/** One database's key index, on the thread; see the module comment. */
export class KeyIndexClient {
  readonly name: string;
  /** Other servers may write the database's sets (PostgreSQL): `catchUp` learns them. */
  readonly shared: boolean;
  /** The number of the last write of a set the index holds (`written`, migration 025). */
  #seen = "0";
  /** Transactions of this index that wrote sets since the last catch-up: it holds those already. */
  #writers = new Set<string>();
  #built = false;
  /** A build under way. */
  #building: Promise<void> | null = null;
  #version = 0;
  /** Transactions that wrote sets whose outcome the index has not learnt. */
  readonly #unsettled = new Set<string>();
  /**
   * Changes not sent yet: they go with the next request, in order (each message costs the server's
   * thread about half a millisecond on a small virtual machine, whatever it holds).
   */
  #queued: IndexOperation[] = [];
  #comparisons = 0;

  constructor(name: string, o: { shared: boolean }) {
    this.name = name;
    this.shared = o.shared;
  }

  /** Whether the index holds the stored sets (`prepare`, `ensureBuilt`). */
  get built(): boolean {
    return this.#built;
  }

  /** Its thread was lost, and what it held: the next detection builds it again. */
  lost(): void {
    this.#built = false;
    this.#unsettled.clear();
    this.#writers.clear();
    this.#queued = [];
    this.#version += 1;
  }

  /**
   * Moves with every change sent to the index: a lookup made before it is still good while this is
   * as it was.
   */
  get version(): number {
    return this.#version;
  }

  /** Transactions that wrote sets the index does not know the outcome of. */
  get unsettled(): string[] {
    return [...this.#unsettled];
  }

  #change(op: string, ...args: unknown[]): void {
    this.#version += 1;
    this.#queued.push([op, args]);
  }

  /** Sends the changes queued now, rather than with the next request. */
  send(): void {
    this.#flush();
  }

  /** Sends the changes queued. */
  #flush(): void {
    if (this.#queued.length === 0) return;
    thread.post(this.name, this.#queued);
    this.#queued = [];
  }

  /** A read of the index, answered by its thread after the changes queued before it. */
  ask<T>(op: string, ...args: unknown[]): Promise<T> {
    const ops = [...this.#queued, [op, args] as IndexOperation];
    this.#queued = [];
    return thread.request<T>(this.name, ops);
  }

  /**
   * Compares a batch named by stand-ins on the index's thread (early-comparison.ts), which keeps
   * the sets it makes until `writeCompared` or `dropCompared` names the comparison.
   */
  compare<T>(batch: unknown): { comparison: number; matches: Promise<T> } {
    const comparison = ++this.#comparisons;
    return { comparison, matches: this.ask<T>("compare", comparison, batch) };
  }

  /** Holds the sets comparison `comparison` made, their stand-ins named by `ids`, as `write`. */
  writeCompared(comparison: number, ids: [standIn: string, id: string][], xid: string): void {
    this.#unsettled.add(xid);
    this.#writers.add(xid);
    this.#change("writeCompared", comparison, ids, xid);
  }

  /** Drops the sets comparison `comparison` made: detection compared again. */
  dropCompared(comparison: number): void {
    this.#queued.push(["dropCompared", [comparison]]);
  }

  /**
   * Builds the index unless it is built (or waits for the build under way), from one snapshot of
   * the database: a repeatable-read transaction of its own, outside the duplicates lock, which a
   * build would hold 41 s at a million listings, every server's detection waiting. The sets written
   * after the snapshot are learnt at the next lookup (catchUp): sets are written under the lock, one
   * transaction at a time, so a set the snapshot misses has a higher number than every set it holds.
   */
  async prepare(sql: Sql): Promise<void> {
    if (this.#built) return;
    await this.#buildOnce(() =>
      // postgres.js types a transaction apart from the pool, though both run the same queries.
      sql.begin("isolation level repeatable read read only", (tx) =>
        this.#build(tx as unknown as Sql))
    );
  }

  /** Builds the index unless it is built (or waits for the build under way), under the lock. */
  async ensureBuilt(sql: Sql): Promise<void> {
    if (this.#built) return;
    await this.#buildOnce(() => this.#build(sql));
  }

  #buildOnce(build: () => Promise<unknown>): Promise<void> {
    this.#building ??= build().then(() => {}).finally(() => this.#building = null);
    return this.#building;
  }

  /**
   * Reads every stored set, a page at a time, through one cursor over a join the database makes by
   * hashing (each table read once): pages of listings in order of id, each a statement, took three
   * times as long on PGlite (5.4 s against 1.9 at 100,000 listings). Run in a transaction where no
   * set is written meanwhile: under the lock, or on one snapshot.
   */
  async #build(sql: Sql): Promise<void> {
    this.#change("clear");
    this.#unsettled.clear();
    this.#writers.clear();
    // No set is written meanwhile: the last write's number is the build's.
    const [last] = await sql<{ seen: string }[]>`
      SELECT coalesce(max(written), 0)::text AS seen FROM event_key_sets`;
    this.#seen = last.seen;
    await sql<SetRow[]>`
      SELECT ${setColumns(sql)} FROM event_key_sets s JOIN events e ON e.id = s.event_id`
      .cursor(PAGE, (page) => {
        // Sent page by page: the whole index is never queued here.
        this.#change("holdStored", page.map(indexedSetOf));
        this.#flush();
      });
    this.#version += 1;
    await this.ask("finishBuild");
    this.#built = true;
  }

  /**
   * On a shared database, holds the sets other servers wrote since the index last learnt of one:
   * each replaces its listing's set. Run under the duplicates lock, after it settled this index's
   * transactions (every set is written under the lock, so each write before it has committed or
   * failed, and its number is below those to come).
   */
  async catchUp(sql: Sql): Promise<void> {
    if (!this.shared) return;
    // A transaction's id as a row's xmin holds it: its low 32 bits.
    const own = [...this.#writers].map((xid) => String(BigInt(xid) % 2n ** 32n));
    const rows = await sql<(Partial<SetRow> & { seen: string | null })[]>`
      SELECT f.seen, ${setColumns(sql)}
      FROM (SELECT max(written)::text AS seen FROM event_key_sets
            WHERE written > ${this.#seen}::bigint) AS f
      LEFT JOIN (event_key_sets s JOIN events e ON e.id = s.event_id)
        ON s.written > ${this.#seen}::bigint AND NOT s.xmin::text::bigint = ANY(${own}::bigint[])`;
    this.#writers.clear();
    if (rows[0].seen === null) return;
    this.#seen = rows[0].seen;
    const written = rows.filter((r): r is SetRow & { seen: string } => r.event_id != null);
    if (written.length > 0) this.#change("holdWritten", written.map(indexedSetOf));
  }

  /**
   * Forgets the listings whose set is gone from the database (deleted events, whose sets the delete
   * trigger removes): their sets are only hits that find no event, but they would stay held. Reads
   * the stored sets' listings only when the index holds more than the database does (once it has
   * learnt the other servers' sets). Returns how many it forgot. Run under the duplicates lock.
   */
  async prune(sql: Sql): Promise<number> {
    await this.catchUp(sql);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM event_key_sets`;
    if (await this.size() <= n) return 0;
    const stored: string[] = [];
    await sql<{ event_id: string }[]>`SELECT event_id FROM event_key_sets`.cursor(PAGE, (page) => {
      for (const r of page) stored.push(r.event_id);
    });
    this.#version += 1;
    return await this.ask<number>("keepOnly", stored);
  }

  /** Sets written by transaction `xid` (its outcome unknown): each held beside the stored one. */
  write(sets: IndexedSet[], xid: string): void {
    if (sets.length === 0) return;
    this.#unsettled.add(xid);
    this.#writers.add(xid);
    this.#change("write", sets, xid);
  }

  /**
   * Learns the outcome of transactions that wrote sets (PostgreSQL's `pg_xact_status`); those in
   * progress, or not in `status`, stay unsettled (KeyIndex.settle).
   */
  settle(status: Map<string, string | null>): void {
    const ended = [...this.#unsettled].filter((xid) =>
      status.has(xid) && status.get(xid) !== "in progress"
    );
    if (ended.length === 0) return;
    for (const xid of ended) this.#unsettled.delete(xid);
    this.#change("settle", new Map(ended.map((xid) => [xid, status.get(xid) ?? null])));
  }

  /**
   * Learns that transaction `xid` committed, when no other transaction's sets wait to be settled:
   * else the next lock learns every outcome, so that a listing's sets are settled in the order
   * they were written.
   */
  committed(xid: string): void {
    if (this.#unsettled.size === 1 && this.#unsettled.has(xid)) {
      this.settle(new Map([[xid, "committed"]]));
    }
  }

  /** See KeyIndex.find. */
  find(probe: IndexProbe, fanout: number): Promise<Hits> {
    return this.ask("find", probe, fanout);
  }

  /** Listings the index holds a set of. */
  size(): Promise<number> {
    return this.ask("size");
  }

  close(): void {
    this.#queued = [];
    thread.drop(this.name);
  }
}

const open = new Map<string, KeyIndexClient>();

/**
 * A new index for a database; `shared`: other servers may write it (PostgreSQL), not when this
 * process holds it alone (PGlite). `close` when the database is closed.
 */
export function openKeyIndex(
  o: { shared: boolean },
): { name: string; index: KeyIndexClient; close(): void } {
  const name = crypto.randomUUID();
  const index = new KeyIndexClient(name, o);
  open.set(name, index);
  thread.users += 1;
  return {
    name,
    index,
    close: () => {
      if (!open.delete(name)) return;
      index.close();
      thread.users -= 1;
      if (thread.users === 0) thread.stop();
    },
  };
}

/**
 * The transactions the open indexes wait to learn the outcome of, each beside its index's name
 * (the session setting naming it): a statement learns the outcomes for the index its session
 * names.
 */
export function awaitedOutcomes(): { index: string[]; xid: string[] } {
  const awaited = { index: [] as string[], xid: [] as string[] };
  for (const [name, index] of open) {
    for (const xid of index.unsettled) {
      awaited.index.push(name);
      awaited.xid.push(xid);
    }
  }
  return awaited;
}

/** The index a session's setting names. */
export function keyIndexNamed(name: string | null | undefined): KeyIndexClient {
  if (!name) {
    throw new Error(
      "Cannot detect duplicates: the session names no key index (open the database with " +
        "openDatabase, which names one)",
    );
  }
  const index = open.get(name);
  if (index === undefined) {
    throw new Error(`Cannot find the key index ${name} the session names: its database is closed`);
  }
  return index;
}
