/**
 * The server's life as operators run it with `npm start`: SIGTERM stops it gracefully (requests in
 * progress finish, new ones get 503 and then no connection, the database is released, exit 0
 * within 10 s),
 * also when npm is PID 1 as in a container; a port in use or a wrong database password is one
 * plain line naming the setting, and a non-zero exit.
 */
import assert from "node:assert/strict";
import { createTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { sampleEvent } from "../support/events.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { canRunAsPid1, type NpmStart, npmStart, serviceLines } from "./support/npm-start.ts";

/** The 10 s an orchestrator waits after SIGTERM before it kills. */
const STOP_LIMIT_MS = 10_000;

/** Waits for the process to exit; fails (and kills it) when that takes longer than `ms`. */
async function exitWithin(server: NpmStart, ms: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  const status = await Promise.race([server.status, late]);
  clearTimeout(timer);
  if (status === null) {
    await server.kill();
    assert.fail(`still running ${ms} ms after SIGTERM:\n${server.output()}`);
  }
  return status.code;
}

async function refusesConnections(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const probe = await Deno.connect({ hostname: "127.0.0.1", port });
      probe.close();
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/** Whether a new request gets 503 (stopping) or no connection at all, within a bound. */
async function turnsAway(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const res = await fetch(`${url}/api/v1/events?limit=1`);
      const body = await res.json();
      if (res.status === 503) return body.code === "service_unavailable";
      assert.equal(res.status, 200);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

async function createKey(url: string, adminKey: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/admin/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ contributor: "ops@example.org", name: "ops" }),
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.key;
}

async function readAll(conn: Deno.Conn): Promise<string> {
  return await new Response(conn.readable).text();
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] SIGTERM to npm start finishes the request in progress and exits 0`, async () => {
    const location = await createTestDatabase(kind);
    const openai = startFakeOpenAI();
    const adminKey = generateApiKey();
    const server = await npmStart({
      env: {
        PORT: "0",
        DATA_DIR: location.dataDir,
        DATABASE_URL: location.databaseUrl ?? "",
        ADMIN_API_KEY: adminKey,
        OPENAI_API_KEY: openai.apiKey,
        OPENAI_BASE_URL: openai.baseUrl,
      },
    });
    try {
      const url = await server.listening();
      const port = Number(new URL(url).port);
      const key = await createKey(url, adminKey);
      const event = sampleEvent(1, { external_id: "in-flight-at-sigterm" });
      const body = new TextEncoder().encode(JSON.stringify({ events: [event] }));
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      const writer = conn.writable.getWriter();
      await writer.write(new TextEncoder().encode(
        `POST /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
          "Connection: close\r\n\r\n",
      ));
      await writer.write(body.subarray(0, 20));
      // Once a later connection is served, the server has taken this one in too.
      assert.equal(await fetch(`${url}/healthz`).then((r) => r.body?.cancel()), undefined);
      const signalledAt = Date.now();
      Deno.kill(server.pid, "SIGTERM");
      // While the upload is finishing, new requests are turned away, not served.
      assert.ok(await turnsAway(url), "a new request was served after SIGTERM");
      await writer.write(body.subarray(20));
      const reply = await readAll(conn);
      assert.ok(await refusesConnections(port), "new connections are still accepted");
      assert.match(reply, /^HTTP\/1\.1 200 /, `${reply}\n${server.output()}`);
      assert.equal(await exitWithin(server, STOP_LIMIT_MS - (Date.now() - signalledAt)), 0);
      assert.match(server.output(), /SIGTERM received: stopping/);
      assert.match(server.output(), /^Stopped$/m);
      // Released: the database opens again and holds the batch acknowledged during the stop.
      const db = await openDatabase(location);
      try {
        const rows = await db
          .sql`SELECT title FROM events WHERE external_id = ${event.external_id}`;
        assert.deepEqual(rows.map((r) => r.title), [event.title]);
      } finally {
        await db.close();
      }
    } finally {
      await server.kill();
      await openai.close();
      await location.drop();
    }
  });
}

Deno.test({
  name: "[pglite] npm start as PID 1 of a container stops on SIGTERM and exits 0",
  ignore: !(await canRunAsPid1()),
  fn: async () => {
    const location = await createTestDatabase("pglite");
    const server = await npmStart({
      asPid1: true,
      env: { PORT: "0", DATA_DIR: location.dataDir, EMBEDDINGS_WORKER: "external" },
    });
    try {
      const url = await server.listening();
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      Deno.kill(server.pid, "SIGTERM");
      assert.equal(await exitWithin(server, STOP_LIMIT_MS), 0);
      assert.match(server.output(), /^Stopped$/m);
      assert.ok(await refusesConnections(Number(new URL(url).port)));
    } finally {
      await server.kill();
      await location.drop();
    }
  },
});

Deno.test("a port already in use is one line naming PORT, and exit 1", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dataDir = await Deno.makeTempDir({ prefix: "events-ops-" });
  try {
    const server = await npmStart({
      env: { PORT: String(taken.addr.port), DATA_DIR: dataDir, EMBEDDINGS_WORKER: "external" },
    });
    assert.equal((await server.status).code, 1);
    const lines = serviceLines(server.output());
    assert.equal(lines.length, 1, server.output());
    assert.match(lines[0], /^Cannot start: port \d+ on 127\.0\.0\.1 is already in use/);
    assert.match(lines[0], /set PORT to a free port$/);
  } finally {
    taken.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test({
  name: "[postgres] a wrong database password or database name is one line naming DATABASE_URL",
  ignore: !Deno.env.get("TEST_DATABASE_URL"),
  fn: async () => {
    const wrong = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    wrong.password = "not-the-password";
    const unknown = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    unknown.pathname = "/no_such_database_here";
    const cases: [URL, RegExp][] = [
      [wrong, /refused the password for user "\w+": correct the password in DATABASE_URL$/],
      [unknown, /there is no database "no_such_database_here" on .*DATABASE_URL$/],
    ];
    for (const [databaseUrl, expected] of cases) {
      const server = await npmStart({
        env: { PORT: "0", DATABASE_URL: databaseUrl.href, EMBEDDINGS_WORKER: "external" },
      });
      assert.equal((await server.status).code, 1);
      const lines = serviceLines(server.output());
      assert.equal(lines.length, 1, server.output());
      assert.match(lines[0], /^Cannot start: PostgreSQL at |^Cannot start: there is no/);
      assert.match(lines[0], expected);
      assert.doesNotMatch(server.output(), /not-the-password/);
    }
  },
});
