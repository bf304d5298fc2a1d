import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a pushed event is listed and found by a word of its description at once`, async () => {
    const server = await startTestServer(kind);
    try {
      const { key } = await createApiKey(server);
      const res = await postBatch(server.url, key, {
        events: [
          sampleEvent(1, { description: "A deep dive into zygohistomorphic prepromorphisms" }),
        ],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { data: { inserted: 1, updated: 0, errors: [] } });
      const found = await (await fetch(`${server.url}/api/v1/events?q=prepromorphisms`)).json();
      assert.equal(found.data.length, 1);
      assert.equal(found.data[0].external_id, "evt-1");
      const listed = await (await fetch(`${server.url}/api/v1/events`)).json();
      assert.deepEqual(listed.data.map((e: { title: string }) => e.title), ["Tech talk number 1"]);
    } finally {
      await server.close();
    }
  });
}
