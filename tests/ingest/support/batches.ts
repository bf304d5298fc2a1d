/** Batch helpers bound to one server and key: accept, reject, and read back what was stored. */
import assert from "node:assert/strict";
import { sampleEvent } from "../../support/events.ts";
import { get, postEvents, type Reply } from "./http.ts";

/** Prefix of every event sent in a batch that must be refused, so the suite can prove none landed. */
export const REJECTED_PREFIX = "rejected-";

let counter = 0;

/** A valid event with a fresh external_id (`rejected-...` when `rejected`). */
export function freshEvent(
  overrides: Record<string, unknown> = {},
  rejected = false,
): Record<string, unknown> {
  counter++;
  return sampleEvent(counter, {
    external_id: `${rejected ? REJECTED_PREFIX : "ok-"}${counter}-${crypto.randomUUID()}`,
    ...overrides,
  });
}

/** Calls on one server with one key. */
export interface Batches {
  /** Posts events that must all be accepted; returns the 200 body's data. */
  // deno-lint-ignore no-explicit-any
  accept(events: Record<string, unknown>[]): Promise<any>;
  /** Posts a batch that must be refused with 400; returns the reply. */
  reject(events: unknown[]): Promise<Reply>;
  /** Posts one event built from `overrides` that must be refused; returns the reply. */
  rejectOne(overrides: Record<string, unknown>): Promise<Reply>;
  /** Posts one event built from `overrides`, expects it stored, and returns it as read back. */
  // deno-lint-ignore no-explicit-any
  roundTrip(overrides: Record<string, unknown>): Promise<any>;
  /** The stored event with this external_id (any platform, past or future), or undefined. */
  // deno-lint-ignore no-explicit-any
  stored(externalId: string, platform?: string): Promise<any>;
}

/** Batch helpers for `base` and `key`. */
export function batches(base: string, key: string): Batches {
  const stored = async (externalId: string, platform?: string) => {
    const p = platform === undefined ? "" : `&platform=${platform}`;
    const reply = await get(
      base,
      `/api/v1/events?from=1900-01-01&external_id=${encodeURIComponent(externalId)}${p}`,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.ok(reply.body.data.length <= 1);
    return reply.body.data[0];
  };
  const accept = async (events: Record<string, unknown>[]) => {
    const reply = await postEvents(base, key, { events });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const reject = async (events: unknown[]) => {
    const reply = await postEvents(base, key, { events });
    assert.equal(
      reply.status,
      400,
      `expected 400, got ${reply.status} ${JSON.stringify(reply.body)}`,
    );
    assert.equal(reply.body.error, "Validation failed");
    return reply;
  };
  return {
    accept,
    reject,
    stored,
    rejectOne: (overrides) => reject([freshEvent(overrides, true)]),
    roundTrip: async (overrides) => {
      const event = freshEvent(overrides);
      const data = await accept([event]);
      assert.deepEqual(data, { inserted: 1, updated: 0, errors: [] });
      const found = await stored(String(event.external_id).trim());
      assert.ok(found, `event ${event.external_id} was accepted but cannot be read back`);
      return found;
    },
  };
}
