/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The thread holding the process's key indexes (server/db/key-index-thread.ts), where a pushed
 * batch is also compared with its index (early-comparison.ts): each message runs its operations on
 * the index it names, in the order sent; a request (a message with an id) is answered with its last
 * operation's result. A change that fails takes the thread down, and with it every index, which the
 * next detection builds again: an index that missed a change would find wrong candidates.
 */
import { type IndexedSet, KeyIndex } from "../db/key-index.ts";
import type { IndexReply, IndexRequest } from "../db/key-index-thread.ts";
import { lookUpIndex } from "../db/indexed-candidates.ts";
import { compareEarly } from "./early-comparison.ts";

/** An index, and the sets of its comparisons not yet written or dropped. */
class Held {
  index = new KeyIndex();
  readonly compared = new Map<number, IndexedSet[]>();

  /** Keeps comparison `comparison`'s sets, and only the last few: an older one was abandoned. */
  keep(comparison: number, sets: IndexedSet[]): void {
    this.compared.set(comparison, sets);
    for (const old of this.compared.keys()) {
      if (this.compared.size <= MAX_COMPARED) break;
      this.compared.delete(old);
    }
  }
}

// Comparisons kept for writing: a push's batch waits for at most a few others on one database.
const MAX_COMPARED = 64;

const indexes = new Map<string, Held>();

// deno-lint-ignore no-explicit-any
type Operation = (held: Held, ...args: any[]) => unknown;

const operations: Record<string, Operation> = {
  clear: (held) => {
    held.index = new KeyIndex();
    held.compared.clear();
  },
  holdStored: ({ index }, sets) => index.holdStored(sets),
  finishBuild: ({ index }) => index.finishBuild(),
  holdWritten: ({ index }, sets) => index.holdWritten(sets),
  keepOnly: ({ index }, stored: string[]) => index.keepOnly(new Set(stored)),
  write: ({ index }, sets, xid) => index.write(sets, xid),
  writeCompared: (held, comparison: number, ids: [string, string][], xid: string) => {
    const sets = held.compared.get(comparison);
    if (sets === undefined) {
      throw new Error(`Cannot write comparison ${comparison}: it was dropped`);
    }
    held.compared.delete(comparison);
    const named = new Map(ids);
    held.index.write(
      sets.map((s) => {
        const id = named.get(s.eventId);
        if (id === undefined) throw new Error(`Cannot write ${s.eventId}'s set: no id names it`);
        return { ...s, eventId: id, row: { ...s.row, id } };
      }),
      xid,
    );
  },
  dropCompared: (held, comparison: number) => held.compared.delete(comparison),
  settle: ({ index }, status) => index.settle(status),
  find: ({ index }, probe, fanout) => index.find(probe, fanout),
  size: ({ index }) => index.size,
  lookUp: ({ index }, search) => lookUpIndex(index, search),
  compare: async (held, comparison: number, batch) => {
    const matches = await compareEarly(held.index, batch);
    if (matches?.sets === undefined) return matches;
    // The sets stay here until the batch's transaction writes them (writeCompared).
    held.keep(comparison, matches.sets.indexed);
    return { ...matches, sets: { ...matches.sets, indexed: [] } };
  },
  heapUsed: () => {
    // For benchmarks: the thread's heap, after a collection where one can be asked for.
    (globalThis as { gc?: () => void }).gc?.();
    return Deno.memoryUsage().heapUsed;
  },
};

/** A change that failed: the index may have missed it, so the thread goes down. */
class ChangeFailed extends Error {}

/**
 * Runs `request`'s operations in order; the last one's result. All but a request's last are
 * changes, whose failure is a ChangeFailed.
 */
async function run({ id, index: name, ops }: IndexRequest): Promise<unknown> {
  let result: unknown;
  for (const [i, [op, args]] of ops.entries()) {
    try {
      result = await runOne(name, op, args);
    } catch (err) {
      if (id !== undefined && i === ops.length - 1) throw err;
      throw new ChangeFailed(`A change to a key index failed: ${op}`, { cause: err });
    }
  }
  return result;
}

async function runOne(name: string, op: string, args: unknown[]): Promise<unknown> {
  if (op === "close") return indexes.delete(name);
  const operation = operations[op];
  if (operation === undefined) {
    throw new Error(`Cannot run ${op} on a key index: no such operation`);
  }
  let held = indexes.get(name);
  if (held === undefined) indexes.set(name, held = new Held());
  return await operation(held, ...args);
}

// A message's operations await nothing but their own work, so no two messages interleave.
self.onmessage = async (e: MessageEvent<IndexRequest>) => {
  const request = e.data;
  let reply: IndexReply | null = null;
  try {
    const value = await run(request);
    if (request.id !== undefined) reply = { id: request.id, ok: true, value };
  } catch (err) {
    const error = err instanceof ChangeFailed
      ? `${err.message}: ${(err.cause as Error)?.message ?? err.cause}`
      : (err as Error).message ?? String(err);
    // The server then ends this thread, and builds every index again.
    if (err instanceof ChangeFailed) reply = { failed: error };
    else if (request.id !== undefined) reply = { id: request.id, ok: false, error };
  }
  if (reply !== null) self.postMessage(reply);
};
