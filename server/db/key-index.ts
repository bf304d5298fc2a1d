/**
 * The lookup keys, held in the server's memory, on a thread of their own (key-index-thread.ts,
 * which also reads the stored sets to build an index, and prunes it). Held in a table
 * (event_lookup_keys, until migration 025), writing a batch's 650 key rows and reading its 650 keys
 * were two thirds of detection's time on PGlite, where each row costs the server's one thread
 * about 10 µs, and 20 ms a batch on PostgreSQL, a third of ingestion's throughput on two cores.
 * The sets themselves stay in event_key_sets, and the index is built from them at its first use.
 * Each set also holds what detection reads of its listing, as it was written with the set, so that
 * the listings a lookup finds need not be read from the database. An embedded database's process
 * holds its data directory alone (connect.ts locks it), so it sees every set written; on
 * PostgreSQL, each server learns the sets the others wrote before it looks up keys
 * (KeyIndexClient.catchUp).
 *
 * A set is written in a transaction whose outcome the index learns later: until then the listing
 * keeps its old set beside the new one, so a lookup finds a superset, and such a listing is read
 * from the database and checked against its stored set (indexed-candidates.ts). The next
 * duplicates lock (lockDuplicates) reports whether the writing transaction committed, and the
 * index keeps the set that is stored.
 *
 * The session names its index (`SESSION_SETTING`), so every detection finds it, whichever
 * transaction it runs in.
 */
import { type LookupReach, NO_DEGREE, rowInReach, STRETCH_DAYS, stretchesOf } from "./key-rows.ts";
import type { MatchRow } from "./match-keys.ts";

/** A listing's key set, as the index holds it. */
export interface IndexedSet {
  eventId: string;
  keys: number[];
  /** Days since 1970-01-01 (UTC), both included. */
  firstDay: number;
  lastDay: number;
  /** The whole degree of its latitude (key-rows.ts). */
  degree: number;
  /** Its event's contributor and platform: a probe never finds listings of its own on its own. */
  owner: string;
  platform: string;
  /** What detection reads of its event, as it was when the set was written. */
  row: MatchRow;
}

/**
 * What detection reads of a listing, as the index holds it: its times as epoch milliseconds, and
 * its place's names shared with other listings' (a MatchRow took twice the memory).
 */
interface HeldRow extends Omit<MatchRow, "id" | "starts_at" | "ends_at"> {
  start: number;
  end: number | null;
}

interface Held extends Omit<IndexedSet, "row"> {
  row: HeldRow;
  alive: boolean;
}

/** A row of a set: one for each of its keys over each stretch of its days (key-rows.ts). */
interface KeyRow {
  day: number;
  last: number;
  degree: number;
  set: Held;
}

/** A listing looking up its keys over what it reaches; its own contributor and platform. */
export interface IndexProbe {
  keys: number[];
  reach: LookupReach;
  owner: string;
  platform: string;
}

/** What a lookup found for one probe: each listing, and how many of the probe's keys it holds. */
export type Hits = Map<string, number>;

/** The setting naming the session's index. */
export const SESSION_SETTING = "tech_events.key_index";

/** The key sets of one database; see the module comment. */
export class KeyIndex {
  /** Each key's rows, ordered by day. */
  readonly #byKey = new Map<number, KeyRow[]>();
  /**
   * A long key's rows (a common word's), by the degree of latitude they hold, each degree's ordered
   * by day: a lookup in a latitude band reads only the band's degrees (of thousands of rows in reach,
   * most are other cities'), and a new row is put in its place among its degree's rows only. A key
   * is in this map or in #byKey.
   */
  readonly #byDegree = new Map<number, Map<number, KeyRow[]>>();
  /** Each listing's stored set, as far as the index knows. */
  readonly #stored = new Map<string, Held>();
  /** Each listing's sets written by transactions whose outcome is not known yet, in order. */
  readonly #unsettled = new Map<string, { xid: string; set: Held }[]>();
  /** One string for each contributor and place name, not one for each listing. */
  readonly #names = new Map<string, string>();
  #references = 0;
  #deadReferences = 0;
  #built = false;

  /** Whether the index holds the stored sets (see `build`). */
  get built(): boolean {
    return this.#built;
  }

  /** Listings the index holds a set of. */
  get size(): number {
    return this.listings().length;
  }

  /** The listings the index holds a set of, stored or waiting to be settled. */
  listings(): string[] {
    return [...new Set([...this.#stored.keys(), ...this.#unsettled.keys()])];
  }

  /** Holds stored sets read from the database, a page at a time, while the index is built. */
  holdStored(sets: IndexedSet[]): void {
    for (const s of sets) this.#keep(s, false);
  }

  /** Ends a build: every stored set is held (holdStored). */
  finishBuild(): void {
    // Each key's rows in order once, rather than each put in its place as it comes (in no order
    // of days): putting each in place took most of the build's own time.
    for (const [key, rows] of this.#byKey) {
      rows.sort((a, b) => a.day - b.day);
      if (rows.length >= LONG_KEY) this.#spread(key, rows);
    }
    this.#built = true;
  }

  /** Sets other servers wrote and committed: each replaces its listing's stored set. */
  holdWritten(sets: IndexedSet[]): void {
    for (const s of sets) this.#keep(s);
  }

  /** Forgets the listings it holds but `stored`, the listings whose set the database holds. */
  keepOnly(stored: Set<string>): number {
    const gone = this.listings().filter((id) => !stored.has(id));
    this.forget(gone);
    return gone.length;
  }

  /**
   * The listings holding each of `probe`'s keys on rows within its reach: for each key the first
   * `fanout` rows in (day, last, event) order; but those of the probe's own contributor on its own
   * platform.
   */
  find(probe: IndexProbe, fanout: number): Hits {
    const { reach } = probe;
    const hits: Hits = new Map();
    const rows: KeyRow[] = [];
    for (const key of probe.keys) {
      rows.length = 0;
      const keyRows = this.#byKey.get(key);
      if (keyRows !== undefined) inReach(keyRows, reach, rows);
      else {
        const degrees = this.#byDegree.get(key);
        if (degrees === undefined) continue;
        inBand(degrees, reach, rows);
      }
      // Only a key with more rows than it may return needs them in the table index's order.
      if (rows.length > fanout) {
        rows.sort((a, b) =>
          a.day - b.day || a.last - b.last ||
          (a.set.eventId < b.set.eventId ? -1 : a.set.eventId > b.set.eventId ? 1 : 0)
        );
        rows.length = fanout;
      }
      const counted = new Set<string>();
      for (const { set } of rows) {
        const { eventId } = set;
        if (counted.has(eventId)) continue;
        // After the limit, as the statement drops them after reading the table's first rows.
        if (set.owner === probe.owner && set.platform === probe.platform) continue;
        counted.add(eventId);
        hits.set(eventId, (hits.get(eventId) ?? 0) + 1);
      }
    }
    return hits;
  }

  /**
   * What detection reads of `eventId`'s event, as its stored set was written: null while a set of
   * it waits to be settled (the event may be as either transaction left it), or when the index
   * holds none. (A deleted event's row stays until `prune`.)
   */
  storedRow(eventId: string): MatchRow | null {
    if (this.#unsettled.has(eventId)) return null;
    const held = this.#stored.get(eventId);
    if (!held?.alive) return null;
    const { start, end, ...row } = held.row;
    return {
      ...row,
      id: eventId,
      starts_at: new Date(start),
      ends_at: end === null ? null : new Date(end),
    };
  }

  /** Transactions that wrote sets the index does not know the outcome of. */
  get unsettled(): string[] {
    return [...new Set([...this.#unsettled.values()].flat().map((u) => u.xid))];
  }

  /**
   * Learns the outcome of transactions that wrote sets (PostgreSQL's `pg_xact_status`): a
   * committed one's last set of each listing is its stored set, an aborted one's are dropped, and
   * those of one in progress, or not in `status`, stay unsettled.
   */
  settle(status: Map<string, string | null>): void {
    for (const [eventId, written] of this.#unsettled) {
      const still = written.filter((u) => {
        // A status PostgreSQL no longer knows (null) is of a transaction long over: kept, as a
        // set held wrongly only costs a hit the statement then drops.
        const outcome = status.get(u.xid);
        if (outcome === "in progress" || outcome === undefined) return true;
        if (outcome === "aborted") this.#kill(u.set);
        else this.#keep(u.set);
        return false;
      });
      if (still.length > 0) this.#unsettled.set(eventId, still);
      else this.#unsettled.delete(eventId);
    }
  }

  /** Sets written by transaction `xid` (its outcome unknown): each held beside the stored one. */
  write(sets: IndexedSet[], xid: string): void {
    for (const s of sets) {
      const written = { xid, set: this.#hold(s) };
      const before = this.#unsettled.get(s.eventId);
      if (before) before.push(written);
      else this.#unsettled.set(s.eventId, [written]);
    }
  }

  /** Forgets listings whose set is gone from the database (deleted events). */
  forget(eventIds: string[]): void {
    for (const id of eventIds) {
      const stored = this.#stored.get(id);
      if (stored !== undefined) this.#kill(stored);
      this.#stored.delete(id);
      for (const u of this.#unsettled.get(id) ?? []) this.#kill(u.set);
      this.#unsettled.delete(id);
    }
  }

  /** `s` as the listing's stored set, replacing the one held before. */
  #keep(s: IndexedSet | Held, inOrder = true): void {
    const held = "alive" in s ? s : this.#hold(s, inOrder);
    const before = this.#stored.get(s.eventId);
    if (before !== undefined && before !== held) this.#kill(before);
    this.#stored.set(s.eventId, held);
  }

  /** Holds `s` under each of its keys: in order of first day, or (a build) at the end. */
  #hold(s: IndexedSet, inOrder = true): Held {
    const { id: _id, starts_at, ends_at, ...row } = s.row;
    const held: Held = {
      ...s,
      owner: this.#name(s.owner),
      platform: this.#name(s.platform),
      keys: [...s.keys],
      row: {
        ...row,
        city: row.city === null ? null : this.#name(row.city),
        country: row.country === null ? null : this.#name(row.country),
        start: starts_at.getTime(),
        end: ends_at === null ? null : ends_at.getTime(),
      },
      alive: true,
    };
    const own = stretchesOf(s.firstDay, s.lastDay).map(([day, last]): KeyRow => ({
      day,
      last,
      degree: s.degree,
      set: held,
    }));
    for (const key of held.keys) {
      const degrees = this.#byDegree.get(key);
      const rows = this.#byKey.get(key);
      if (degrees !== undefined) {
        for (const row of own) putInPlace(listIn(degrees, row.degree), row);
      } else if (rows === undefined) this.#byKey.set(key, [...own]);
      else if (!inOrder) rows.push(...own);
      else {
        for (const row of own) putInPlace(rows, row);
        if (rows.length >= LONG_KEY) this.#spread(key, rows);
      }
    }
    this.#references += held.keys.length * own.length;
    return held;
  }

  #name(text: string): string {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    this.#names.set(text, text);
    return text;
  }

  #kill(held: Held): void {
    if (!held.alive) return;
    held.alive = false;
    // Its rows for each key: one for each stretch of its days.
    this.#deadReferences += held.keys.length * stretchesOf(held.firstDay, held.lastDay).length;
    // Dead sets are skipped by lookups, and cleared out once they are half of what is held.
    if (this.#deadReferences * 2 > this.#references) this.#compact();
  }

  /** Holds long key `key`'s rows (ordered by day) by degree of latitude. */
  #spread(key: number, rows: KeyRow[]): void {
    const degrees = new Map<number, KeyRow[]>();
    for (const row of rows) listIn(degrees, row.degree).push(row);
    this.#byKey.delete(key);
    this.#byDegree.set(key, degrees);
  }

  #compact(): void {
    const alive = <K>(lists: Map<K, KeyRow[]>) => {
      for (const [key, rows] of lists) {
        const live = rows.filter((r) => r.set.alive);
        if (live.length === 0) lists.delete(key);
        else lists.set(key, live);
      }
    };
    alive(this.#byKey);
    for (const [key, degrees] of this.#byDegree) {
      alive(degrees);
      if (degrees.size === 0) this.#byDegree.delete(key);
    }
    this.#references -= this.#deadReferences;
    this.#deadReferences = 0;
  }
}

// A key with this many rows holds them by degree of latitude (KeyIndex.#byDegree).
const LONG_KEY = 256;

/** The index of the first of `rows` (ordered by day) starting on `day` or later. */
function firstFrom(rows: KeyRow[], day: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Puts `row` among `rows` (ordered by day), after those of its day. */
function putInPlace(rows: KeyRow[], row: KeyRow): void {
  rows.splice(firstFrom(rows, row.day + 1), 0, row);
}

/** The rows `lists` holds under `key`: a new list held there when it holds none. */
function listIn<K>(lists: Map<K, KeyRow[]>, key: K): KeyRow[] {
  let rows = lists.get(key);
  if (rows === undefined) lists.set(key, rows = []);
  return rows;
}

/**
 * Adds to `found` the live rows of `rows` (ordered by day) that a lookup reaching `reach` finds, as
 * the table's range scan: from the rows starting STRETCH_DAYS - 1 days before the reach.
 */
function inReach(rows: KeyRow[], reach: LookupReach, found: KeyRow[]): void {
  for (let i = firstFrom(rows, reach.first - (STRETCH_DAYS - 1)); i < rows.length; i++) {
    const row = rows[i];
    if (row.day > reach.last) break;
    if (row.set.alive && rowInReach(row, reach)) found.push(row);
  }
}

/**
 * Adds to `found` the rows of a long key (by degree) that a lookup reaching `reach` finds: those of
 * the degrees in its band and those of no degree, or all without a band.
 */
function inBand(degrees: Map<number, KeyRow[]>, reach: LookupReach, found: KeyRow[]): void {
  const band = reach.latitudes;
  if (band === null) {
    for (const rows of degrees.values()) inReach(rows, reach, found);
    return;
  }
  const none = degrees.get(NO_DEGREE);
  if (none !== undefined) inReach(none, reach, found);
  for (let degree = Math.floor(band[0]); degree <= Math.floor(band[1]); degree++) {
    const rows = degrees.get(degree);
    if (rows !== undefined) inReach(rows, reach, found);
  }
}
