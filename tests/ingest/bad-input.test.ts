/**
 * Hostile and malformed bodies: every one gets a documented 4xx (never a 500), and the largest
 * legal batch still goes through.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { detailsAt, listAll, type Reply, send, serverWithKey } from "./support/http.ts";
import { freshEvent, REJECTED_PREFIX } from "./support/batches.ts";

const MAX_BODY = 4 * 1024 * 1024;

/** The largest event the field rules allow, about 38 KB of JSON. */
function maximalEvent(n: number): Record<string, unknown> {
  const labels = (count: number) =>
    Array.from({ length: count }, (_, i) => `${n}-${i}-`.padEnd(100, "x"));
  const url = (path: string) => `https://example.org/${path}/`.padEnd(2048, "p");
  return freshEvent({
    external_id: `max-${n}-${crypto.randomUUID()}`.padEnd(500, "i"),
    source_url: url("source"),
    title: `Maximal event ${n} `.padEnd(500, "t"),
    description: "é".repeat(10_000),
    ends_at: "2030-06-02T18:00:00Z",
    timezone: "America/Argentina/ComodRivadavia",
    venue_name: "v".repeat(500),
    city: "c".repeat(500),
    country: "k".repeat(500),
    latitude: -89.999999,
    longitude: 179.999999,
    is_virtual: true,
    is_hybrid: false,
    is_free: false,
    price_min: 0.01,
    price_max: 1e9,
    currency: "CHF",
    is_sold_out: true,
    event_type: "e".repeat(500),
    categories: labels(20),
    tags: labels(50),
    topics: labels(20),
    organiser_name: "o".repeat(500),
    organiser_url: url("organiser"),
    cover_image_url: url("cover"),
    attendee_count: 2_147_483_647,
    capacity: 2_147_483_647,
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] malformed and hostile bodies get a documented 4xx, never a 500`, async (t) => {
    // Over real HTTP: bodies sized and chunked as they reach Deno's server.
    const { server, key } = await serverWithKey(kind, { listening: true });
    const endpoint = `${server.url}/api/v1/events`;
    const raw = (body: BodyInit | null, headers: Record<string, string> = {}) =>
      send(endpoint, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          ...headers,
        },
        body,
      });
    const rejectedBody = (reply: Reply, path: (string | number)[] = []) => detailsAt(reply, path);
    try {
      await t.step("a body that is not JSON is refused with 400", async () => {
        for (const body of ["{events:", "{'events': []}", "events=1", '{"events": [}']) {
          const [message] = rejectedBody(await raw(body));
          assert.match(message, /not valid JSON/);
        }
      });

      await t.step("a JSON body that is not an object is refused with 400", async () => {
        for (const body of ["[]", `[{"events": []}]`, `"events"`, "42", "null", "true", "1e400"]) {
          const [message] = rejectedBody(await raw(body));
          assert.match(message, /JSON object/);
        }
      });

      await t.step("an empty or blank body is refused with 400", async () => {
        for (const body of [null, "", "   \n"]) {
          const [message] = rejectedBody(await raw(body));
          assert.match(message, /empty/);
        }
      });

      await t.step("events missing or of the wrong type is refused at path events", async () => {
        for (const body of [{}, { events: {} }, { events: "x" }, { events: null }, { event: [] }]) {
          const reply = await raw(JSON.stringify(body));
          assert.equal(reply.status, 400);
          detailsAt(reply, ["events"]);
        }
      });

      await t.step("a body that is not JSON by its Content-Type gets 415", async () => {
        const body = JSON.stringify({ events: [freshEvent({}, true)] });
        for (
          const type of [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
          ]
        ) {
          const reply = await raw(body, { "Content-Type": type });
          assert.equal(reply.status, 415, `${type}: ${JSON.stringify(reply.body)}`);
          assert.match(reply.body.message, /application\/json/);
        }
      });

      await t.step(
        "JSON content types with parameters or a +json suffix are accepted",
        async () => {
          for (const type of ["application/json; charset=utf-8", "Application/JSON"]) {
            const reply = await raw(JSON.stringify({ events: [freshEvent()] }), {
              "Content-Type": type,
            });
            assert.equal(reply.status, 200, `${type}: ${JSON.stringify(reply.body)}`);
          }
        },
      );

      await t.step("bytes that are not UTF-8 are refused with 400", async () => {
        const bytes = new TextEncoder().encode(JSON.stringify({ events: [freshEvent({}, true)] }));
        const broken = new Uint8Array([...bytes.slice(0, 40), 0xff, 0xfe, ...bytes.slice(40)]);
        rejectedBody(await raw(broken));
      });

      await t.step("NUL characters are refused, escaped or raw", async () => {
        const escaped = await raw(JSON.stringify({
          events: [freshEvent({ title: "a\u0000b" }, true)],
        }));
        detailsAt(escaped, ["events", 0, "title"]);
        const rawNul = JSON.stringify({ events: [freshEvent({}, true)] }).replace("Tech", "Te\0ch");
        rejectedBody(await raw(rawNul));
        const nulKey = await raw(
          JSON.stringify({ events: [freshEvent({ "ti\u0000tle": "x" }, true)] }),
        );
        detailsAt(nulKey, ["events", 0, "ti\u0000tle"]);
      });

      await t.step("a lone UTF-16 surrogate in a string is refused, not stored", async () => {
        for (const title of ["\ud800", "ok \udfff ok"]) {
          const reply = await raw(JSON.stringify({ events: [freshEvent({ title }, true)] }));
          detailsAt(reply, ["events", 0, "title"]);
        }
        const label = await raw(
          JSON.stringify({ events: [freshEvent({ tags: ["\ud83d"] }, true)] }),
        );
        detailsAt(label, ["events", 0, "tags", 0]);
      });

      await t.step("a body over 4 MiB with Content-Length gets 413", async () => {
        const body = JSON.stringify({ events: [freshEvent({ description: "x" }, true)] })
          .replace('"x"', `"${"x".repeat(MAX_BODY)}"`);
        const reply = await raw(body);
        assert.equal(reply.status, 413, JSON.stringify(reply.body));
        assert.match(reply.body.message, /larger than/);
      });

      await t.step("a body over 4 MiB sent chunked without Content-Length gets 413", async () => {
        const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode('{"events": ['));
            if (sent > MAX_BODY + chunk.length * 4) {
              controller.enqueue(new TextEncoder().encode("]}"));
              controller.close();
              return;
            }
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        });
        const reply = await send(endpoint, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: stream,
          duplex: "half",
        } as RequestInit);
        assert.equal(reply.status, 413, JSON.stringify(reply.body));
      });

      await t.step("a chunked body under the limit is read whole", async () => {
        const text = JSON.stringify({ events: [freshEvent(), freshEvent()] });
        const bytes = new TextEncoder().encode(text);
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
            controller.close();
          },
        });
        const reply = await send(endpoint, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: stream,
          duplex: "half",
        } as RequestInit);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.data.inserted, 2);
      });

      await t.step("deeply nested JSON is refused without a crash", async () => {
        const depth = 50_000;
        const nested = "[".repeat(depth) + "]".repeat(depth);
        rejectedBody(await raw(nested));
        detailsAt(await raw(`{"events": ${nested}}`), ["events", 0]);
        for (const field of ["title", "platform", "tags", "extra", "latitude"]) {
          const body = JSON.stringify({ events: [freshEvent({ [field]: 0 }, true)] })
            .replace(`"${field}":0`, `"${field}":${nested}`);
          const reply = await raw(body);
          assert.equal(reply.status, 400, `${field}: ${reply.status}`);
          detailsAt(reply, field === "tags" ? ["events", 0, field, 0] : ["events", 0, field]);
        }
        const objects = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
        const reply = await raw(`{"events": [${objects}]}`);
        detailsAt(reply, ["events", 0, "a"]);
      });

      await t.step("numbers out of range, huge or not finite are refused", async () => {
        const cases: [string, string][] = [
          ["latitude", "1e400"],
          ["longitude", "-1e400"],
          ["price_min", "1e400"],
          ["attendee_count", "1e20"],
          ["capacity", "2147483648"],
          ["capacity", "123456789012345678901234567890"],
        ];
        for (const [field, literal] of cases) {
          const body = JSON.stringify({ events: [freshEvent({ [field]: 0 }, true)] })
            .replace(`"${field}":0`, `"${field}":${literal}`);
          detailsAt(await raw(body), ["events", 0, field]);
        }
        // Underflows to 0, a valid latitude.
        const tiny = JSON.stringify({ events: [freshEvent({ latitude: 0 })] })
          .replace(`"latitude":0`, `"latitude":1e-400`);
        assert.equal((await raw(tiny)).status, 200);
        const big = await raw(JSON.stringify({
          events: [freshEvent({ price_min: 1e308, price_max: Number.MAX_VALUE, is_free: false })],
        }));
        assert.equal(big.status, 200, JSON.stringify(big.body));
      });

      await t.step("unicode and emoji are stored and read back exactly", async () => {
        const title = "Rust 🦀 & Zig ⚡ — مؤتمر التقنية · 東京 · e\u0301 · 👩🏽‍💻";
        const e = freshEvent({ title, city: "Zürich", tags: ["日本語", "ÉCOLE", "école"] });
        const reply = await raw(JSON.stringify({ events: [e] }));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const [stored] = await listAll(server.url, `external_id=${e.external_id}`);
        assert.equal(stored.title, title);
        assert.equal(stored.city, "Zürich");
        assert.deepEqual(stored.tags, ["日本語", "ÉCOLE"]);
      });

      await t.step("odd field names are refused as unknown fields", async () => {
        for (const name of ["__proto__", "constructor", "toString", "x".repeat(10_000)]) {
          const body = JSON.stringify({ events: [freshEvent({}, true)] })
            .replace(/}]}$/, `,${JSON.stringify(name)}:{"polluted":true}}]}`);
          const reply = await raw(body);
          detailsAt(reply, ["events", 0, name]);
        }
        const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i]));
        const reply = await raw(JSON.stringify({ events: [freshEvent(many, true)] }));
        assert.equal(reply.body.details.length, 5000);
      });

      await t.step("a batch of 100 maximum-size events under 4 MiB is accepted whole", async () => {
        const events = Array.from({ length: 100 }, (_, n) => maximalEvent(n));
        const body = JSON.stringify({ events });
        const size = new TextEncoder().encode(body).length;
        assert.ok(size > 3 * 1024 * 1024 && size < MAX_BODY, `body is ${size} bytes`);
        const reply = await raw(body);
        assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 2000));
        assert.deepEqual(reply.body.data, { inserted: 100, updated: 0, errors: [] });
        const again = await raw(body);
        assert.deepEqual(again.body.data, { inserted: 0, updated: 100, errors: [] });
        const [first] = await listAll(server.url, `external_id=${events[0].external_id}`);
        assert.equal(first.description, "é".repeat(10_000));
        assert.equal(first.tags.length, 50);
        assert.equal(first.capacity, 2_147_483_647);
      });

      await t.step("nothing of any refused body was stored", async () => {
        const all = await listAll(server.url, "from=1900-01-01&limit=100");
        const leaked = all.filter((e) => e.external_id.startsWith(REJECTED_PREFIX));
        assert.deepEqual(leaked.map((e) => e.external_id), []);
      });
    } finally {
      await server.close();
    }
  });
}
