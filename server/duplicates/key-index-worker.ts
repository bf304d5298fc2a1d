/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The thread holding the process's key indexes (server/db/key-index-thread.ts), where a pushed
 * batch is also compared with its index (early-comparison.ts): each message runs one
 * operation on the index it names, in the order sent; a request (a message with an id) is
 * answered. A change that fails takes the thread down, and with it every index, which the next
 * detection builds again: an index that missed a change would find wrong candidates.
 */
import { KeyIndex } from "../db/key-index.ts";
import type { IndexReply, IndexRequest } from "../db/key-index-thread.ts";
import { lookUpIndex } from "../db/indexed-candidates.ts";
import { compareEarly } from "./early-comparison.ts";

const indexes = new Map<string, KeyIndex>();

// deno-lint-ignore no-explicit-any
type Operation = (index: KeyIndex, ...args: any[]) => unknown;

const operations: Record<string, Operation> = {
  clear: () => {},
  holdStored: (index, sets) => index.holdStored(sets),
  finishBuild: (index) => index.finishBuild(),
  keepOnly: (index, stored: string[]) => index.keepOnly(new Set(stored)),
  write: (index, sets, xid) => index.write(sets, xid),
  settle: (index, status) => index.settle(status),
  forget: (index, ids) => index.forget(ids),
  find: (index, probe, fanout) => index.find(probe, fanout),
  storedRow: (index, id) => index.storedRow(id),
  size: (index) => index.size,
  lookUp: (index, search) => lookUpIndex(index, search),
  compare: (index, batch) => compareEarly(index, batch),
};

function run({ index: name, op, args }: IndexRequest): unknown {
  if (op === "close") return indexes.delete(name);
  if (op === "heapUsed") {
    // For benchmarks: the thread's heap, after a collection where one can be asked for.
    (globalThis as { gc?: () => void }).gc?.();
    return Deno.memoryUsage().heapUsed;
  }
  const operation = operations[op];
  if (operation === undefined) {
    throw new Error(`Cannot run ${op} on a key index: no such operation`);
  }
  let index = indexes.get(name);
  if (index === undefined || op === "clear") indexes.set(name, index = new KeyIndex());
  return operation(index, ...args);
}

self.onmessage = async (e: MessageEvent<IndexRequest>) => {
  const request = e.data;
  if (request.id === undefined) {
    run(request);
    return;
  }
  let reply: IndexReply;
  try {
    reply = { id: request.id, ok: true, value: await run(request) };
  } catch (err) {
    reply = { id: request.id, ok: false, error: (err as Error).message ?? String(err) };
  }
  self.postMessage(reply);
};
