/**
 * The in-process app most API tests use (startTestApp) answers as the listening server does, and
 * counts public requests by the client address a test gives, as the server counts by socket peer.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, startTestServer } from "../../dev-support/test-server.ts";
import { freshEvent } from "./support/batches.ts";

/** The parts of an answer that must not depend on how it was reached. */
async function answer(res: Response): Promise<unknown> {
  const body = await res.json();
  // Ids and times differ from one database to the other; the shape and the codes must not.
  const text = JSON.stringify(body)
    .replace(/"[0-9a-f]{8}-[0-9a-f-]{27}"/g, '"<id>"')
    .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"')
    .replace(/evk_\w+/g, "<key>");
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    rateLimit: res.headers.get("ratelimit-policy"),
    authenticate: res.headers.get("www-authenticate"),
    body: JSON.parse(text),
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the in-process app answers as the listening server does`, async () => {
    const [listening, inProcess] = await Promise.all([startTestServer(kind), startTestApp(kind)]);
    try {
      const answers = [];
      const event = { ...freshEvent(), external_id: "same-1" };
      for (const server of [listening, inProcess]) {
        const { key } = await createApiKey(server, { contributor: "same@example.org" });
        const push = (body: string, k: string | null = key) =>
          server.fetch("/api/v1/events", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              ...(k === null ? {} : { Authorization: `Bearer ${k}` }),
            },
            body,
          });
        answers.push([
          await answer(await push(JSON.stringify({ events: [event] }))),
          await answer(await push(JSON.stringify({ events: [event] }))),
          await answer(await push("{not json")),
          await answer(await push(JSON.stringify({ events: [event] }), null)),
          await answer(await server.fetch("/api/v1/events?external_id=same-1&from=2000-01-01")),
          await answer(await server.fetch("/api/v1/events?limit=0")),
          await answer(await server.fetch("/api/v1/no-such-thing")),
        ]);
      }
      assert.deepEqual(answers[1], answers[0]);
    } finally {
      await Promise.all([listening.close(), inProcess.close()]);
    }
  });

  Deno.test(`[${kind}] the in-process app limits public reads per client address`, async () => {
    const server = await startTestApp(kind, { publicRateLimitPerMinute: 2 });
    try {
      const read = (clientAddress: string) =>
        server.fetch("/api/v1/events", { clientAddress }).then(async (res) => {
          await res.body?.cancel();
          return res.status;
        });
      assert.deepEqual([await read("10.0.0.1"), await read("10.0.0.1")], [200, 200]);
      assert.equal(await read("10.0.0.1"), 429);
      assert.equal(await read("10.0.0.2"), 200);
    } finally {
      await server.close();
    }
  });
}
