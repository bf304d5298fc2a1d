/** Pacing and retry rules, and the settings checked before any request. */
import assert from "node:assert/strict";
import { paceDelayMs, readRateLimit, retryAfterSeconds } from "../../cli/send/rate-limit.ts";
import { backoffMs } from "../../cli/send/backoff.ts";
import type { ApiResponse } from "../../cli/send/api-client.ts";
import { apiSettings, readSettings, sendSettings } from "../../cli/settings.ts";
import { AuthError, UsageError } from "../../cli/errors.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";

function response(headers: Record<string, string>, body: unknown = {}): ApiResponse {
  return { status: 200, headers, body, elapsedMs: 1 };
}

Deno.test("the IETF RateLimit fields are read and an empty quota waits until it refills", () => {
  const state = readRateLimit(
    response({ ratelimit: '"default";r=0;t=17', "ratelimit-policy": '"default";q=3;w=60' }),
  );
  assert.deepEqual(state, { remaining: 0, resetSeconds: 17, quota: 3, windowSeconds: 60 });
  assert.equal(paceDelayMs(state), 17_250);
  assert.equal(paceDelayMs({ remaining: 2, resetSeconds: 17 }), 0);
  assert.equal(readRateLimit(response({})), null);
});

Deno.test("Retry-After is read as seconds, as an HTTP date, or from the body", () => {
  assert.equal(retryAfterSeconds(response({ "retry-after": "12" })), 12);
  const now = Date.parse("2030-01-01T00:00:00Z");
  assert.equal(
    retryAfterSeconds(response({ "retry-after": "Tue, 01 Jan 2030 00:00:30 GMT" }), now),
    30,
  );
  assert.equal(retryAfterSeconds(response({}, { retry_after: 4 })), 4);
  assert.equal(retryAfterSeconds(response({})), null);
});

Deno.test("backoff doubles per attempt, stays within half and all of its ceiling, and is capped", () => {
  assert.equal(backoffMs(0, 500, 30_000, () => 0), 250);
  assert.equal(backoffMs(0, 500, 30_000, () => 1), 500);
  assert.equal(backoffMs(3, 500, 30_000, () => 1), 4000);
  assert.equal(backoffMs(20, 500, 30_000, () => 1), 30_000);
});

Deno.test("a missing or malformed key is an authentication error before any request", () => {
  assert.throws(() => apiSettings({}, {}), AuthError);
  const key = generateApiKey();
  const typo = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
  assert.throws(
    () => apiSettings({ apiKey: typo }, {}),
    (e) => e instanceof AuthError && !e.message.includes(typo),
  );
  assert.equal(
    apiSettings({}, { EVENTS_API_KEY: key, EVENTS_API_URL: "https://api.example.org" }).apiUrl,
    "https://api.example.org",
  );
  assert.throws(() => apiSettings({ apiUrl: "ftp://x" }, { EVENTS_API_KEY: key }), UsageError);
});

Deno.test("batch size above 100, unknown platforms and map targets are usage errors", () => {
  assert.throws(() => sendSettings({ batchSize: "101" }), /from 1 to 100/);
  assert.deepEqual(sendSettings({}), { batchSize: 100, maxRetries: 5 });
  assert.throws(() => readSettings({ platform: "facebook" }), /luma, eventbrite/);
  assert.throws(() => readSettings({ map: ["Name=name"] }), /name is not an event field/);
  assert.throws(() => readSettings({ timezone: "Mars/Olympus" }), UsageError);
  assert.equal(
    readSettings({ horizon: "30", from: "2026-01-01" }).from.toISOString(),
    "2026-01-01T00:00:00.000Z",
  );
});
