/**
 * SQL and HTML in every text field and every query parameter are inert: stored and returned
 * exactly, matched only as text, and escaped wherever the site, its JSON-LD and the feeds show
 * them.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { icsEvents, parseXml } from "../web/support/documents.ts";

const PAYLOADS = [
  "'; DROP TABLE events; --",
  '" OR ""="',
  "1) OR (1=1",
  "$1 %s %% _ \\ \\\\",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "</title></script><svg/onload=alert(1)>",
  "]]><!-- &amp; &lt;",
  "Line one\r\nBEGIN:VEVENT\r\nSUMMARY:injected",
  "{{constructor.constructor('alert(1)')()}}",
];

const TEXT_FIELDS = [
  "title",
  "description",
  "venue_name",
  "city",
  "country",
  "event_type",
  "organiser_name",
];

function hostileEvent(n: number, payload: string) {
  return sampleEvent(n, {
    external_id: `${payload} #${n}`,
    ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, payload])),
    categories: [payload],
    tags: [payload],
    topics: [payload],
    source_url: `https://example.org/e/${n}?q=${encodeURIComponent(payload)}&x="'<>`,
    organiser_url: `https://example.org/o?name=<b>${n}</b>`,
  });
}

/** No raw markup from a payload may reach an HTML document. */
function assertNoRawMarkup(html: string, where: string): void {
  for (const raw of ["<script>alert(1)", "<img src=x", "<svg/onload", "]]><!--"]) {
    assert.ok(!html.includes(raw), `${where} contains ${raw} unescaped`);
  }
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] security: SQL and HTML in every field and parameter are inert`, async (t) => {
    const server = await startTestServer(kind, { publicRateLimitPerMinute: 100_000 });
    try {
      const key = await createApiKey(server);
      const events = PAYLOADS.map((p, i) => hostileEvent(i, p));
      const pushed = await postBatch(server.url, key.key, { events });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      assert.equal(pushed.body.data.inserted, PAYLOADS.length);

      await t.step("stored and read back exactly", async () => {
        for (const [i, payload] of PAYLOADS.entries()) {
          const res = await fetch(
            `${server.url}/api/v1/events?external_id=${encodeURIComponent(`${payload} #${i}`)}`,
          );
          const body = await res.json();
          assert.equal(body.data.length, 1, payload);
          const stored = body.data[0];
          for (const field of TEXT_FIELDS) assert.equal(stored[field], payload.trim(), field);
          assert.deepEqual(stored.topics, [payload.trim()]);
          assert.equal(stored.source_url, events[i].source_url);
        }
      });

      await t.step("as query parameters they match only as text", async () => {
        for (const payload of PAYLOADS) {
          const value = encodeURIComponent(payload);
          for (const name of ["city", "country", "topic", "external_id", "q"]) {
            const res = await fetch(`${server.url}/api/v1/events?from=2000-01-01&${name}=${value}`);
            const body = await res.json();
            assert.equal(res.status, 200, `${name}=${payload}: ${JSON.stringify(body)}`);
            if (name === "q") continue;
            assert.equal(body.data.length, name === "external_id" ? 0 : 1, `${name}=${payload}`);
            for (const e of body.data) {
              const values = name === "topic" ? e.topics : [e[name]];
              assert.ok(values.includes(payload.trim()), `${name}=${payload}`);
            }
          }
          const search = await fetch(`${server.url}/api/v1/search?mode=text&q=${value}`);
          assert.equal(search.status, 200, payload);
          await search.body?.cancel();
        }
        const [{ count }] = await server.service.deps.db
          .sql`SELECT count(*)::int AS count FROM events`;
        assert.equal(count, PAYLOADS.length, "every table and row is still there");
      });

      await t.step("the site, its JSON-LD and the feeds escape them", async () => {
        const listed = await (await fetch(`${server.url}/api/v1/events?limit=100`)).json();
        for (const e of listed.data) {
          const page = await (await fetch(`${server.url}/events/${e.id}`)).text();
          assertNoRawMarkup(page, `/events/${e.id}`);
          for (
            const script of page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)
          ) {
            assert.ok(JSON.parse(script[1]), "JSON-LD stays one valid script");
          }
        }
        for (const payload of PAYLOADS) {
          const value = encodeURIComponent(payload);
          const home = await (await fetch(`${server.url}/?q=${value}&city=${value}`)).text();
          assertNoRawMarkup(home, `/?q=${payload}`);
        }
        const atom = await (await fetch(`${server.url}/events.atom?from=2000-01-01`)).text();
        const titles = parseXml(atom).elements.filter((el) => el.name === "title").map((el) =>
          el.text
        );
        for (const payload of PAYLOADS) {
          const xmlText = payload.trim().replace(/\r\n?/g, "\n");
          assert.ok(titles.includes(xmlText), `atom title ${payload}`);
        }
        const ics = await (await fetch(`${server.url}/events.ics?from=2000-01-01`)).text();
        assert.equal(icsEvents(ics).length, PAYLOADS.length, "no injected VEVENT");
        assert.ok(!/^SUMMARY:injected/m.test(ics), "no injected property line");
      });
    } finally {
      await server.close();
    }
  });
}
