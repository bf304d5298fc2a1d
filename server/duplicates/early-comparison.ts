/**
 * On the embedded database, a pushed batch compared with the key index while the database stores
 * it. PGlite runs its statements on the server's thread, and the upsert is most of a batch's time
 * there; the key index is on a thread of its own (server/db/key-index-thread.ts), so detection's
 * JavaScript (each listing's facts and keys, the index's lookups, the matcher) runs there meanwhile,
 * and the batch's transaction then only takes the lock and writes what was found.
 *
 * The events have no ids yet, so the comparison names them by stand-ins, replaced by their ids once
 * the upsert returns them. It is used only where it is what detection in the transaction would
 * find: every event of the batch was written (none an identical re-send, none another
 * contributor's), none was changed only in fields the matcher does not read (detection keeps such
 * a listing's links, which the comparison would replace), and the index did not change between the
 * comparison and the lock (KeyIndexClient.version: another batch's sets, a settled outcome, a
 * pruning). Else the batch is compared again under the lock.
 */
import type { EventRecord } from "../../shared/event-schema.ts";
import type { SessionKeys } from "../db/duplicate-links.ts";
import type { KeyIndex } from "../db/key-index.ts";
import type { KeyIndexClient } from "../db/key-index-thread.ts";
import { findInIndex } from "../db/indexed-candidates.ts";
import { matchSourceOf } from "./match-facts.ts";
import type { KeySet } from "../db/match-keys.ts";
import {
  type BatchMatches,
  matchBatch,
  type PriorMatches,
  sameSet,
  type WrittenBatch,
} from "./detect-duplicates.ts";

/** A batch's comparison, sent to the index's thread before the batch is stored. */
export class EarlyComparison implements PriorMatches {
  readonly #index: KeyIndexClient;
  /** Each event the upsert may write (the last of each pair), and its stand-in. */
  readonly #standIns: Map<EventRecord, string>;
  readonly #version: number;
  readonly #comparison: number;
  readonly #matches: Promise<BatchMatches | null>;
  #used = false;

  /**
   * Starts comparing `batch.events` (as the upsert reads them: the last of each pair counts), or
   * returns null while the index is not built or holds sets it has not settled: their listings are
   * read from the database, under the lock.
   */
  static start(
    index: KeyIndexClient,
    batch: { contributorId: string; events: EventRecord[] },
  ): EarlyComparison | null {
    if (!index.built || index.unsettled.length > 0) return null;
    return new EarlyComparison(index, batch);
  }

  private constructor(
    index: KeyIndexClient,
    batch: { contributorId: string; events: EventRecord[] },
  ) {
    this.#index = index;
    const last = new Map(batch.events.map((e) => [`${e.platform}\n${e.external_id}`, e]));
    this.#standIns = new Map([...last.values()].map((e, i) => [e, `new:${i}`]));
    this.#version = index.version;
    const written: WrittenBatch = {
      contributorId: batch.contributorId,
      changed: [...this.#standIns].map(([e, id]) => ({
        id,
        inserted: true,
        // What the comparison reads: the matcher's fields and the platform.
        event: { ...matchSourceOf(e), platform: e.platform },
      })),
    };
    const { comparison, matches } = index.compare<BatchMatches | null>(written);
    this.#comparison = comparison;
    // A comparison that fails is made again under the lock, which meets the failure itself.
    this.#matches = matches.catch(() => null);
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
  async matchesFor(
    written: WrittenBatch,
    keys: SessionKeys,
    stored: Map<string, KeySet>,
  ): Promise<BatchMatches | null> {
    const m = await this.#matches;
    if (m === null) return null;
    const taken = this.#taken(m, written, keys, stored);
    // The index's thread keeps the comparison's sets until they are written or dropped.
    if (taken === null && m.sets !== undefined) this.#index.dropCompared(this.#comparison);
    return taken;
  }

  #taken(
    m: BatchMatches,
    written: WrittenBatch,
    keys: SessionKeys,
    stored: Map<string, KeySet>,
  ): BatchMatches | null {
    if (keys.index !== this.#index || keys.index.version !== this.#version) return null;
    if (written.changed.length !== this.#standIns.size) return null;
    const sets = new Map(m.sets?.changes.map((s) => [s.event_id, s]));
    const ids = new Map<string, string>();
    const replacing: string[] = [];
    for (const w of written.changed) {
      const standIn = this.#standIns.get(w.event as EventRecord);
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
        indexed: [],
        compared: { comparison: this.#comparison, ids: [...ids] },
      },
    };
  }
}

/**
 * On the index's thread: the first half of detection (matchBatch) for a batch named by stand-ins,
 * with the index alone; null where a listing found waits to be settled.
 */
export async function compareEarly(
  index: KeyIndex,
  batch: WrittenBatch,
): Promise<BatchMatches | null> {
  if (!index.built || index.unsettled.length > 0) return null;
  let whole = true;
  const matches = await matchBatch(batch, new Map(), {
    byKeys: (search) => {
      const found = findInIndex(index, search);
      if (found === null) whole = false;
      return Promise.resolve(found ?? { pairs: [], indexed: [] });
    },
  });
  return whole ? matches : null;
}
