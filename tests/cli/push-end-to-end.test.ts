/**
 * The built CLI as a child process against the real server (and a fault-injecting proxy in front
 * of it): what a contributor and a CI job see.
 */
import assert from "node:assert/strict";
import { createApiKey, startTestServer } from "../../dev-support/test-server.ts";
import { testBackends } from "../../dev-support/databases.ts";
import { sampleEvent } from "../support/events.ts";
import { runCli } from "../../dev-support/run-cli.ts";
import { startFaultProxy } from "./support/fault-proxy.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";

const DATA = new URL("../fixtures/", import.meta.url).pathname;
const OPTIONS = { sanitizeResources: false, sanitizeOps: false };

/** Every stored event (paging through the public list), keyed by external_id. */
async function storedEvents(url: string): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ from: "1990-01-01T00:00:00Z", limit: "100" });
    if (cursor) query.set("cursor", cursor);
    const res = await fetch(`${url}/api/v1/events?${query}`);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    for (const event of body.data) found.set(event.external_id, event);
    cursor = body.next_cursor;
  } while (cursor);
  return found;
}

async function writeTemp(name: string, text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "events-cli-" });
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, text);
  return path;
}

function env(url: string, key: string): Record<string, string> {
  return { EVENTS_API_URL: url, EVENTS_API_KEY: key };
}

for (const kind of testBackends()) {
  Deno.test(
    `[${kind}] pushing an ICS inserts each occurrence, and pushing it again updates them all`,
    OPTIONS,
    async () => {
      const server = await startTestServer(kind);
      try {
        const { key } = await createApiKey(server);
        const args = [
          "push",
          `${DATA}ics-node-ical/recurrence-sequence.ics`,
          "--from",
          "2024-01-01",
          "--horizon",
          "30",
          "--source-url",
          "https://calendar.example.org/team",
          "--json",
        ];
        const first = await runCli(args, { env: env(server.url, key) });
        assert.equal(first.code, 0, first.stderr);
        const summary = first.json();
        // 5 daily occurrences (2 replaced by overrides) + 2 overrides that match no occurrence.
        assert.deepEqual(
          [summary.valid, summary.inserted, summary.updated, summary.rejected, summary.skipped],
          [7, 7, 0, 0, 2],
        );
        const stored = await storedEvents(server.url);
        assert.equal(stored.size, 7);
        const moved = stored.get("sequence-test@node-ical.test#20240103T100000Z")!;
        assert.equal(moved.title, "Newer override (SEQUENCE 5) - should win");
        assert.equal(moved.starts_at, "2024-01-03T15:00:00.000Z");
        assert.equal(moved.platform, "ics_feed");

        const again = await runCli(args, { env: env(server.url, key) });
        assert.equal(again.code, 0, again.stderr);
        assert.deepEqual([again.json().inserted, again.json().updated], [0, 7]);
        assert.equal((await storedEvents(server.url)).size, 7);
      } finally {
        await server.close();
      }
    },
  );
}

Deno.test(
  "pushing a CSV and a JSON file stores every row with its types, and --json output parses",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    try {
      const { key } = await createApiKey(server);
      const csv =
        "\uFEFFexternal_id,Title,source_url,starts_at,timezone,tags,is_free,price_min,notes\r\n" +
        'c1,"Rust meetup, Berlin",https://ex.org/c1,2030-05-01 19:00,Europe/Berlin,rust;systems,no,"1,250.50",x\r\n' +
        'c2,"Two\r\nline title",https://ex.org/c2,2030-05-02T18:00:00Z,,a|b,yes,,y\r\n';
      const csvPath = await writeTemp("feed.csv", csv);
      const pushed = await runCli(["push", csvPath, "--map", "notes=", "--json"], {
        env: env(server.url, key),
      });
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.deepEqual([pushed.json().inserted, pushed.json().invalid], [2, 0]);
      const stored = await storedEvents(server.url);
      const c1 = stored.get("c1")!;
      assert.equal(c1.title, "Rust meetup, Berlin");
      assert.equal(c1.starts_at, "2030-05-01T17:00:00.000Z");
      assert.deepEqual(c1.tags, ["rust", "systems"]);
      assert.equal(c1.is_free, false);
      assert.equal(c1.price_min, 1250.5);
      assert.match(stored.get("c2")!.title as string, /^Two\r?\nline title$/);

      const events = Array.from({ length: 150 }, (_, i) => sampleEvent(i));
      const jsonPath = await writeTemp("feed.json", JSON.stringify({ events }, null, 2));
      const json = await runCli(["push", jsonPath, "--platform", "meetup", "--json"], {
        env: env(server.url, key),
      });
      assert.equal(json.code, 0, json.stderr);
      const summary = json.json();
      assert.deepEqual([summary.batches, summary.inserted, summary.updated], [2, 150, 0]);
      assert.equal((await storedEvents(server.url)).get("evt-149")?.platform, "meetup");
    } finally {
      await server.close();
    }
  },
);

Deno.test(
  "invalid records are reported with file and line, skipped, and make the exit code 1",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    try {
      const { key } = await createApiKey(server);
      const lines = [sampleEvent(1), { ...sampleEvent(2), title: "" }, sampleEvent(3), {
        ...sampleEvent(4),
        starts_at: "2030-06-31",
      }];
      const path = await writeTemp("feed.ndjson", lines.map((l) => JSON.stringify(l)).join("\n"));
      const run = await runCli(["push", path], { env: env(server.url, key) });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /feed\.ndjson:2: invalid: title must not be empty/);
      assert.match(
        run.stderr,
        /feed\.ndjson:4: invalid: starts_at "2030-06-31" is not a real date/,
      );
      assert.match(run.stdout, /^Stored 2 events: 2 inserted, 0 updated\.$/m);
      assert.equal((await storedEvents(server.url)).size, 2);

      const strict = await runCli(["push", path, "--strict", "--json"], {
        env: env(server.url, key),
      });
      assert.equal(strict.code, 1);
      assert.equal(strict.json().batches, 0);
    } finally {
      await server.close();
    }
  },
);

Deno.test(
  "a key limited to a few requests per window waits for the quota and ends with correct counts",
  OPTIONS,
  async () => {
    // A 3-second window instead of a minute: the CLI paces itself by the same headers in seconds.
    const server = await startTestServer(testBackends()[0], { rateLimitWindowSeconds: 3 });
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 3 });
      const path = await writeTemp(
        "feed.json",
        JSON.stringify(Array.from({ length: 5 }, (_, i) => sampleEvent(i))),
      );
      const run = await runCli(["push", path, "--batch-size", "1", "--json"], {
        env: { ...env(server.url, key), EVENTS_PROGRESS_SECONDS: "2" },
        timeoutMs: 150_000,
      });
      assert.equal(run.code, 0, run.stderr);
      const summary = run.json();
      assert.deepEqual([summary.batches, summary.inserted, summary.retries], [5, 5, 0]);
      assert.ok(summary.waited_ms > 0, "the CLI paced itself by the RateLimit header");
      // Not a terminal: a CI log hears from the run while it waits for the quota. How many were
      // sent before the first wait depends on where the 3-second window fell (on a busy machine a
      // window can end between two requests), so only the line's form is fixed.
      assert.match(
        run.stderr,
        /^progress: \d records read \(100% of the input\), [34] sent; waiting \d+ s \(rate limit\)$/m,
      );
    } finally {
      await server.close();
    }
  },
);

Deno.test(
  "through 503s and dropped connections the push retries and nothing is lost or doubled",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    const proxy = await startFaultProxy(server.url);
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
      proxy.faults.push(
        "503",
        "drop-before-forward",
        "drop-after-forward",
        "503",
        "drop-after-forward",
      );
      const events = Array.from({ length: 250 }, (_, i) => sampleEvent(i));
      const path = await writeTemp("feed.json", JSON.stringify(events));
      const run = await runCli(["push", path, "--json", "--timeout", "10"], {
        env: env(proxy.url, key),
      });
      assert.equal(run.code, 0, run.stderr);
      const summary = run.json();
      assert.equal(summary.retries, 5);
      // The first batch meets all five faults; the server applied it twice before the connection
      // dropped, so its final, answered attempt counts as updates. The rest are plain inserts.
      assert.deepEqual([summary.inserted, summary.updated], [150, 100]);
      const stored = await storedEvents(server.url);
      assert.equal(stored.size, 250);
    } finally {
      await proxy.close();
      await server.close();
    }
  },
);

Deno.test(
  "a 429 is waited out and a 413 splits the batch, and the summary counts both as they happen",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    const proxy = await startFaultProxy(server.url);
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
      proxy.faults.push("429", "413");
      const events = Array.from({ length: 4 }, (_, i) => sampleEvent(i));
      const path = await writeTemp("feed.json", JSON.stringify(events));
      const run = await runCli(["push", path, "--json", "--batch-size", "4"], {
        env: env(proxy.url, key),
      });
      assert.equal(run.code, 0, run.stderr);
      const summary = run.json();
      // One retry (the 429); the 413 is no retry but two half batches of two.
      assert.deepEqual(
        [summary.retries, summary.batches, summary.inserted, summary.rejected],
        [1, 2, 4, 0],
      );
      assert.ok(summary.waited_ms >= 1000, `Retry-After: 1 not waited: ${summary.waited_ms} ms`);
      assert.ok(summary.request_ms > 0);
      assert.deepEqual(proxy.log.map((entry) => entry.outcome), ["429", "413", 200, 200]);
      assert.equal((await storedEvents(server.url)).size, 4);
    } finally {
      await proxy.close();
      await server.close();
    }
  },
);

Deno.test(
  "a failing server makes the push give up with exit 4 after --max-retries",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    const proxy = await startFaultProxy(server.url);
    try {
      const { key } = await createApiKey(server);
      proxy.faults.push(...Array<"503">(10).fill("503"));
      const path = await writeTemp("feed.json", JSON.stringify([sampleEvent(1), sampleEvent(2)]));
      const run = await runCli(["push", path, "--json", "--max-retries", "2"], {
        env: env(proxy.url, key),
      });
      assert.equal(run.code, 4, run.stderr);
      const summary = run.json();
      assert.deepEqual([summary.retries, summary.not_sent, summary.exit_code], [2, 2, 4]);
      assert.equal(proxy.log.length, 3);
    } finally {
      await proxy.close();
      await server.close();
    }
  },
);

Deno.test("a wrong key exits 3 at once and no output ever shows a key", OPTIONS, async () => {
  const server = await startTestServer(testBackends()[0]);
  try {
    const { key } = await createApiKey(server);
    const path = await writeTemp("feed.json", JSON.stringify([sampleEvent(1)]));
    const other = await createApiKey(server);
    await runCli(["admin", "revoke", other.prefix], { env: env(server.url, server.adminKey) });
    const revoked = await runCli(["push", path, "--json"], { env: env(server.url, other.key) });
    assert.equal(revoked.code, 3);
    // The error alone: no summary of zeros.
    assert.deepEqual(Object.keys(revoked.json()).sort(), [
      "error",
      "error_kind",
      "exit_code",
      "ok",
    ]);
    assert.deepEqual([revoked.json().exit_code, revoked.json().error_kind], [3, "auth"]);
    // The server's sentence sits inside the CLI's: one full stop between them, not two.
    assert.match(revoked.json().error, /has been revoked\. Check --api-key/);
    assert.doesNotMatch(revoked.json().error, /\.\./);

    // Malformed: refused offline, so even an unreachable URL gives 3, not 4.
    const malformed = await runCli([
      "push",
      path,
      "--api-key",
      `${key}x`,
      "--api-url",
      "http://127.0.0.1:9",
    ]);
    assert.equal(malformed.code, 3);
    assert.ok(malformed.ms < 5000);

    const readOnly = await createApiKey(server, { scopes: ["admin"] });
    const forbidden = await runCli(["push", path], { env: env(server.url, readOnly.key) });
    assert.equal(forbidden.code, 3);
    assert.match(forbidden.stderr, /^error: .*events:write/);
    assert.equal(forbidden.stdout, "");
    for (const run of [revoked, malformed, forbidden]) {
      for (const secret of [key, other.key, readOnly.key]) {
        assert.ok(
          !run.stdout.includes(secret) && !run.stderr.includes(secret),
          "a key was printed",
        );
      }
    }
  } finally {
    await server.close();
  }
});

Deno.test("operators list, review, trust and revoke keys by display prefix", OPTIONS, async () => {
  const server = await startTestServer(testBackends()[0]);
  try {
    const admin = env(server.url, server.adminKey);
    const created = await runCli([
      "admin",
      "create-key",
      "--contributor",
      "Berlin JS",
      "--name",
      "feed",
      "--json",
    ], { env: admin });
    assert.equal(created.code, 0, created.stderr);
    const key = created.json();
    assert.match(key.key, /^evk_/);
    const path = await writeTemp("feed.json", JSON.stringify([sampleEvent(1), sampleEvent(2)]));
    assert.equal((await runCli(["push", path], { env: env(server.url, key.key) })).code, 0);

    // The operator key from ADMIN_API_KEY, the variable the server reads it from.
    const pending = await runCli(["admin", "keys", "--status", "pending", "--json"], {
      env: { EVENTS_API_URL: server.url, ADMIN_API_KEY: server.adminKey },
    });
    assert.deepEqual(pending.json().map((k: { prefix: string }) => k.prefix), [key.prefix]);
    const review = await runCli(["admin", "review", key.prefix], { env: admin });
    assert.equal(review.code, 0, review.stderr);
    assert.match(review.stdout, /Tech talk number 1/);
    assert.match(review.stdout, /Tech talk number 2/);
    const trust = await runCli(["admin", "trust", key.prefix, "--json"], { env: admin });
    assert.equal(trust.json().status, "trusted");
    const unknown = await runCli(["admin", "trust", "evk_00000000"], { env: admin });
    assert.equal(unknown.code, 2);
    const revoke = await runCli(["admin", "revoke", key.id, "--json"], { env: admin });
    assert.equal(revoke.json().status, "revoked");
    assert.equal((await runCli(["push", path], { env: env(server.url, key.key) })).code, 3);
  } finally {
    await server.close();
  }
});

Deno.test(
  "an operator command whose answer is not a key gives up naming the field, instead of printing it",
  OPTIONS,
  async () => {
    // Not the service: a server that answers every request 200 with a list of something else.
    const foreign = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      () => Response.json({ data: [{ id: "1", prefix: "evk_12345678", status: "sleeping" }] }),
    );
    try {
      const url = `http://127.0.0.1:${foreign.addr.port}`;
      const run = await runCli(["admin", "keys", "--json"], {
        env: { EVENTS_API_URL: url, ADMIN_API_KEY: generateApiKey() },
      });
      assert.equal(run.code, 4, run.stderr);
      assert.match(run.json().error, /GET \/api\/v1\/admin\/keys at data\.0\.\w+/);
    } finally {
      await foreign.shutdown();
    }
  },
);
