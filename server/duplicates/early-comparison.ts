/**
 * On the embedded database, a pushed batch compared with the key index while the database stores
 * it. The database runs on a thread of its own (server/db/embedded-thread.ts), and the upsert is
 * most of a batch's time there: detection's JavaScript (each listing's facts and keys, the index's
 * lookups, the matcher) runs meanwhile instead of after it, and the batch's transaction then only
 * takes the lock and writes what was found.
 *
 * The events have no ids yet, so the comparison names them by stand-ins, replaced by their ids once
 * the upsert returns them. It is used only where it is what detection in the transaction would
 * find: every event of the batch was written (none an identical re-send, none another
 * contributor's), none was changed only in fields the matcher does not read (detection keeps such
 * a listing's links, which the comparison would replace), and the index did not move between the
 * comparison and the lock (KeyIndex.version: another batch's sets, a settled outcome, a pruning).
 * Else the batch is compared again under the lock, as before.
 */
import type { Sql } from "postgres";
import type { EventRecord } from "../../shared/event-schema.ts";
import type { SessionKeys } from "../db/duplicate-links.ts";
import type { KeyIndex } from "../db/key-index.ts";
import type { KeySet } from "../db/match-keys.ts";
import {
  type BatchMatches,
  type DetectionTimings,
  matchBatch,
  type PriorMatches,
  sameSet,
  type WrittenBatch,
} from "./detect-duplicates.ts";

/** Lets the event loop turn, so that a statement just sent reaches the database's thread. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A batch's comparison made while it is stored; see the module comment. */
export class EarlyComparison implements PriorMatches {
  readonly #sql: Sql;
  readonly #index: KeyIndex;
  readonly #batch: WrittenBatch;
  readonly #timings?: DetectionTimings;
  #version = -1;
  #matches: BatchMatches | null = null;
  #used = false;

  /** `events` as the upsert reads them: the last of each (external id, platform) counts. */
  constructor(
    sql: Sql,
    index: KeyIndex,
    batch: { contributorId: string; events: EventRecord[] },
    timings?: DetectionTimings,
  ) {
    this.#sql = sql;
    this.#index = index;
    this.#timings = timings;
    const last = new Map(batch.events.map((e) => [`${e.platform}\n${e.external_id}`, e]));
    this.#batch = {
      contributorId: batch.contributorId,
      changed: [...last.values()].map((event, i) => ({ id: `new:${i}`, inserted: true, event })),
    };
  }

  /**
   * Compares the batch: run once its upsert is sent. Does nothing while the index is not built or
   * holds sets it has not settled (their listings are read from the database, under the lock).
   */
  async run(): Promise<void> {
    const index = this.#index;
    if (!index.built || index.unsettled.length > 0) return;
    // Twice: once for the driver to hand the statement to the socket, once for the socket to send.
    await nextTurn();
    await nextTurn();
    const version = index.version;
    try {
      const batch = this.#batch;
      this.#matches = await matchBatch(this.#sql, index, batch, new Map(), {
        timings: this.#timings,
      });
      this.#version = version;
    } catch {
      // Detection under the lock meets the same failure, and deals with it.
      this.#matches = null;
    }
  }

  /** Whether detection took what the comparison found (matchesFor). */
  get used(): boolean {
    return this.#used;
  }

  /**
   * What the comparison found, with the events' ids, for `written` (what the upsert inserted or
   * changed), under the lock `keys`, given the changed listings' `stored` sets; null where
   * detection must compare again (see above).
   */
  matchesFor(
    written: WrittenBatch,
    keys: SessionKeys,
    stored: Map<string, KeySet>,
  ): BatchMatches | null {
    const m = this.#matches;
    if (m === null || keys.index !== this.#index || keys.index.version !== this.#version) {
      return null;
    }
    const stood = new Map(this.#batch.changed.map((w) => [w.event, w.id]));
    if (written.changed.length !== stood.size) return null;
    const sets = new Map(m.sets?.changes.map((s) => [s.event_id, s]));
    const ids = new Map<string, string>();
    const replacing: string[] = [];
    for (const w of written.changed) {
      const standIn = stood.get(w.event as EventRecord);
      if (standIn === undefined) return null;
      ids.set(standIn, w.id);
      const set = sets.get(standIn);
      if (w.inserted || set === undefined) continue;
      if (sameSet(stored.get(w.id), set)) return null;
      replacing.push(w.id);
    }
    // A candidate found in the index keeps its own id.
    const id = (x: string) => ids.get(x) ?? x;
    this.#used = true;
    return {
      ...m,
      replacing,
      links: m.links.map(({ a, b, score }) => {
        const [x, y] = [id(a), id(b)];
        return x < y ? { a: x, b: y, score } : { a: y, b: x, score };
      }),
      sets: m.sets && {
        allNew: replacing.length === 0,
        changes: m.sets.changes.map((s) => ({ ...s, event_id: id(s.event_id) })),
        indexed: m.sets.indexed.map((s) => ({
          ...s,
          eventId: id(s.eventId),
          row: { ...s.row, id: id(s.row.id) },
        })),
      },
    };
  }
}
