/**
 * The shared rules as a client meets them over HTTP, on every database: the same date-time rules
 * in bodies and in query parameters, is_free following the prices, and plain messages.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

/** The messages of a 400 at `path`. */
function messagesAt(reply: { status: number; body: Body }, path: (string | number)[]): string[] {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  const key = JSON.stringify(path);
  const found = reply.body.details.filter((d: Body) => JSON.stringify(d.path) === key);
  assert.ok(found.length > 0, `no problem at ${key}: ${JSON.stringify(reply.body.details)}`);
  return found.map((d: Body) => d.message);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] date-times and prices follow the shared rules over HTTP`, async (t) => {
    const server = await startTestServer(kind);
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 10_000 });
      let n = 0;
      const push = (overrides: Record<string, unknown>) =>
        call(`${server.url}/api/v1/events`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ events: [sampleEvent(++n, overrides)] }),
        });
      const list = (query: string) => call(`${server.url}/api/v1/events?${query}`);

      await t.step("an out-of-range offset in a body is a 400, and nothing is stored", async () => {
        for (const starts_at of ["2027-03-10T18:00:00+00:60", "2027-03-10T18:00:00+25:00"]) {
          const [message] = messagesAt(await push({ starts_at }), ["events", 0, "starts_at"]);
          assert.match(message, /offset out of range/);
        }
        const stored = await list("from=2027-03-01&to=2027-03-31");
        assert.deepEqual(stored.body.data, []);
      });

      await t.step(
        "an out-of-range offset in from or to is a 400 naming the parameter",
        async () => {
          for (
            const [name, value] of [["from", "2027-03-10T18:00:00+00:60"], [
              "to",
              "2027-03-10T18:00:00+25:00",
            ]]
          ) {
            const reply = await list(`${name}=${encodeURIComponent(value)}`);
            const [message] = messagesAt(reply, ["query", name]);
            assert.match(message, new RegExp(`^${name} .*offset out of range`));
          }
        },
      );

      await t.step("an impossible date in from or to is a 400, not rolled over", async () => {
        for (const query of ["to=2027-02-30", "from=2027-02-29", "to=2027-04-31T10:00:00Z"]) {
          const name = query.slice(0, query.indexOf("="));
          const [message] = messagesAt(await list(query), ["query", name]);
          assert.match(message, /is not a real date/);
        }
        assert.equal((await list("from=2028-02-29&to=2028-02-29")).status, 200);
      });

      await t.step("an unknown query parameter is named as one", async () => {
        const [message] = messagesAt(await list("colour=red"), ["query", "colour"]);
        assert.equal(
          message,
          "colour is not a query parameter of this endpoint: remove it or check its spelling",
        );
      });

      await t.step("a paid event without is_free is stored as not free", async () => {
        const reply = await push({
          external_id: "paid-talk",
          starts_at: "2031-05-01T10:00:00Z",
          price_min: 250,
          currency: "EUR",
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const all = await list("from=2031-05-01&to=2031-05-01");
        assert.deepEqual(all.body.data.map((e: Body) => [e.external_id, e.is_free]), [
          ["paid-talk", false],
        ]);
        const free = await list("from=2031-05-01&to=2031-05-01&is_free=true");
        assert.deepEqual(free.body.data, []);
        const paid = await list("from=2031-05-01&to=2031-05-01&is_free=false");
        assert.equal(paid.body.data.length, 1);
      });

      await t.step("is_free true with a price above 0 is a 400 on is_free", async () => {
        const reply = await push({
          is_free: true,
          price_min: 250,
          starts_at: "2031-06-01T10:00:00Z",
        });
        const [message] = messagesAt(reply, ["events", 0, "is_free"]);
        assert.match(message, /set is_free to false/);
      });
    } finally {
      await server.close();
    }
  });
}
