/**
 * The public site without a browser: pages list, search and show events with the API's own code,
 * feeds parse with real parsers, and nothing a contributor writes can run or link anywhere unsafe.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { get, icsEvents, jsonLdOf, linksOf, parseXml } from "./support/documents.ts";

const RUST = sampleEvent(1, {
  title: "Rust Berlin: ownership in practice",
  starts_at: "2031-01-14T19:00:00",
  ends_at: "2031-01-14T21:30:00",
  timezone: "Europe/Berlin",
  venue_name: "c-base",
  city: "Berlin",
  country: "Germany",
  latitude: 52.5128,
  longitude: 13.4201,
  description: "Two talks on borrowing, lifetimes and unsafe code.",
  topics: ["rust"],
  organiser_name: "Rust Berlin",
  organiser_url: "https://rust.example.org/",
  is_free: false,
  price_min: 5,
  price_max: 15,
  currency: "EUR",
  cover_image_url: "https://images.example.org/rust.png",
});
const GO = sampleEvent(2, {
  title: "Go online workshop",
  starts_at: "2031-02-01T15:00:00Z",
  is_virtual: true,
  topics: ["go"],
});
const HOSTILE = sampleEvent(3, {
  title: `<script>alert("t")</script> & ]]> \u0001\u000b\uFFFE end`,
  description: "</script><img src=x onerror=alert(1)> <!-- \u0000x".replace("\u0000", ""),
  starts_at: "2031-03-01T10:00:00Z",
  city: "Lisbon",
  topics: ["a,b;c\\d"],
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the public site lists, searches, shows and feeds events`, async (t) => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server);
      const pushed = await postBatch(server.url, key.key, { events: [RUST, GO, HOSTILE] });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      const sql = server.service.deps.db.sql;
      const [{ id: rustId }] = await sql`SELECT id FROM events WHERE external_id = 'evt-1'`;
      const [{ id: hostileId }] = await sql`SELECT id FROM events WHERE external_id = 'evt-3'`;

      await t.step("the home page lists upcoming events, soonest first", async () => {
        const home = await get(server.url, "/");
        assert.equal(home.status, 200);
        assert.match(home.headers.get("content-type")!, /text\/html/);
        const order = [RUST.title, GO.title].map((title) => home.text.indexOf(title));
        assert.ok(order[0] > 0 && order[0] < order[1], "Rust (January) before Go (February)");
      });

      await t.step("search and filters take the API's parameters", async () => {
        const words = await get(server.url, "/?q=lifetimes&mode=text");
        assert.ok(words.text.includes(RUST.title));
        assert.ok(!words.text.includes(GO.title));
        const online = await get(server.url, "/?attendance=online");
        assert.ok(online.text.includes(GO.title) && !online.text.includes(RUST.title));
        assert.match(online.text, /<details class="filters" open/, "a set filter opens the panel");
        const inPerson = await get(server.url, "/?attendance=in_person");
        assert.ok(!inPerson.text.includes(GO.title) && inPerson.text.includes(RUST.title));
        const city = await get(server.url, "/?city=berlin&topic=RUST");
        assert.ok(city.text.includes(RUST.title) && !city.text.includes(GO.title));
        const none = await get(server.url, "/?city=Atlantis");
        assert.match(none.text, /No events found/);
        assert.ok(linksOf(none.text).some((l) => l.href === "/"), "offers a way out");
      });

      await t.step("a bad parameter is explained on the page, not a failure", async () => {
        const bad = await get(server.url, "/?from=yesterday&city=Berlin&is_free=");
        assert.equal(bad.status, 200);
        assert.match(bad.text, /from must be a date/);
        assert.ok(bad.text.includes(RUST.title));
      });

      await t.step("listings page by cursor", async () => {
        const extra = Array.from({ length: 25 }, (_, i) =>
          sampleEvent(100 + i, {
            title: `Paged meetup ${100 + i}`,
            starts_at: `2032-01-${String(i + 1).padStart(2, "0")}T10:00:00Z`,
            city: "Pagetown",
          }));
        assert.equal((await postBatch(server.url, key.key, { events: extra })).status, 200);
        const first = await get(server.url, "/?city=Pagetown");
        assert.equal((first.text.match(/Paged meetup/g) ?? []).length, 20);
        const next = linksOf(first.text).find((l) => l.rel === "next");
        assert.ok(next, "a next-page link");
        const second = await get(server.url, next.href);
        assert.equal((second.text.match(/Paged meetup/g) ?? []).length, 5);
        assert.ok(second.text.includes("Paged meetup 124") && !second.text.includes("meetup 100<"));
      });

      await t.step("the event page has every detail and valid JSON-LD", async () => {
        const page = await get(server.url, `/events/${rustId}`);
        assert.equal(page.status, 200);
        for (
          const text of ["c-base", "Berlin", "€5.00 – €15.00", "Rust Berlin", "(Europe/Berlin)"]
        ) {
          assert.ok(page.text.includes(text), `shows ${text}`);
        }
        assert.match(page.text, /Tue, 14 Jan 2031, 19:00 CET – 21:30 CET/);
        const links = linksOf(page.text);
        assert.ok(
          links.some((l) => l.href.startsWith("https://www.openstreetmap.org/?mlat=52.51280")),
        );
        assert.ok(
          links.some((l) => l.href.startsWith("https://calendar.google.com/calendar/render?")),
        );
        assert.ok(links.some((l) => l.href === `/events/${rustId}/calendar.ics`));
        const organiser = links.find((l) => l.href === "https://rust.example.org/");
        assert.equal(organiser?.rel, "nofollow ugc noopener");
        const [ld] = jsonLdOf(page.text);
        assert.equal(ld["@type"], "Event");
        assert.equal(ld.name, RUST.title);
        assert.equal(ld.startDate, "2031-01-14T19:00:00+01:00");
        assert.equal(ld.endDate, "2031-01-14T21:30:00+01:00");
        assert.equal(ld.eventAttendanceMode, "https://schema.org/OfflineEventAttendanceMode");
        assert.equal(ld.eventStatus, "https://schema.org/EventScheduled");
        assert.deepEqual((ld.location as Record<string, unknown>).name, "c-base");
        assert.deepEqual(ld.offers, {
          "@type": "Offer",
          url: RUST.source_url,
          price: 5,
          priceCurrency: "EUR",
          availability: "https://schema.org/InStock",
          validFrom: (ld.offers as Record<string, unknown>).validFrom,
        });
        assert.deepEqual(ld.organizer, {
          "@type": "Organization",
          name: "Rust Berlin",
          url: "https://rust.example.org/",
        });
        assert.deepEqual(ld.image, ["https://images.example.org/rust.png"]);
        assert.equal(ld.url, `${server.url}/events/${rustId}`);
      });

      await t.step("an unknown event is an HTML 404", async () => {
        for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
          const page = await get(server.url, `/events/${id}`);
          assert.equal(page.status, 404);
          assert.match(page.headers.get("content-type")!, /text\/html/);
        }
      });

      await t.step(
        "an unknown address is the site's 404 page for browsers, JSON for programs",
        async () => {
          const html = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };
          const page = await get(server.url, "/no/such/page", html);
          assert.equal(page.status, 404);
          assert.match(page.headers.get("content-type")!, /text\/html/);
          assert.ok(page.headers.get("content-security-policy"), "the site's security headers");
          assert.match(page.text, /<h1>Not found<\/h1>/);
          assert.match(page.text, /<form method="get" action="\/" role="search"[^>]*>/);
          assert.match(page.text, /<input id="message-q" name="q" type="search"/);
          assert.match(page.text, /<a href="\/">Back to upcoming events<\/a>/);
          const programs: [string, RequestInit][] = [
            ["/no/such/page", {}],
            ["/no/such/page", { headers: { Accept: "application/json" } }],
            ["/api/v1/no-such-endpoint", html],
            ["/mcp/no-such-thing", html],
            ["/no/such/feed.ics", html],
            ["/no/such/page", { ...html, method: "POST" }],
          ];
          for (const [path, init] of programs) {
            const res = await get(server.url, path, init);
            assert.equal(res.status, 404, path);
            assert.equal(JSON.parse(res.text).code, "not_found", `${init.method ?? "GET"} ${path}`);
          }
        },
      );

      await t.step("the ICS feed of a search parses and holds what it matches", async () => {
        const feed = await get(server.url, "/events.ics?city=Berlin");
        assert.equal(feed.status, 200);
        assert.match(feed.headers.get("content-type")!, /^text\/calendar/);
        assert.ok(
          feed.text.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75),
        );
        const events = icsEvents(feed.text);
        assert.deepEqual(events.map((e) => e.summary), [RUST.title]);
        assert.equal(events[0].startDate.toJSDate().toISOString(), "2031-01-14T18:00:00.000Z");
        assert.equal(events[0].location, "c-base, Berlin, Germany");
        const one = icsEvents((await get(server.url, `/events/${rustId}/calendar.ics`)).text);
        assert.equal(one[0].uid, events[0].uid);
        const refused = await get(server.url, "/events.ics?limit=1000");
        assert.equal(refused.status, 400);
        assert.equal(JSON.parse(refused.text).details[0].path.join("."), "query.limit");
      });

      await t.step("feeds with hostile text stay valid", async () => {
        const ics = icsEvents((await get(server.url, "/events.ics?city=Lisbon")).text);
        // iCalendar refuses only control characters; XML also refuses U+FFFE.
        assert.equal(ics[0].summary, `<script>alert("t")</script> & ]]> \uFFFE end`);
        assert.deepEqual(
          ics[0].component.getFirstProperty("categories")!.getValues(),
          ["a,b;c\\d"],
        );
        const atom = await get(server.url, "/events.atom?city=Lisbon");
        assert.match(atom.headers.get("content-type")!, /^application\/atom\+xml/);
        const titles = parseXml(atom.text).elements.filter((e) => e.name === "title");
        assert.equal(titles[1].text, `<script>alert("t")</script> & ]]>  end`);
      });

      await t.step("contributors' text renders as text, links only when http(s)", async () => {
        // The API refuses such URLs; these rows are written past it, as an old bug might have.
        await sql`UPDATE events SET organiser_url = 'javascript:alert(1)', organiser_name = 'Evil',
          source_url = ' JaVaScRiPt:alert(2)', cover_image_url = 'data:text/html,x'
          WHERE id = ${hostileId}`;
        const page = await get(server.url, `/events/${hostileId}`);
        assert.equal(page.status, 200);
        assert.ok(!/<script>alert/.test(page.text), "no live script element");
        assert.ok(page.text.includes("&lt;script&gt;alert"), "the title shows as text");
        assert.ok(!/<img src=x/.test(page.text));
        assert.ok(!/javascript:/i.test(page.text), "no javascript: anywhere, not even in JSON-LD");
        assert.ok(!page.text.includes("data:text/html"));
        for (const link of linksOf(page.text)) {
          assert.match(link.href, /^(\/|#|https?:\/\/)/, `unsafe link ${link.href}`);
        }
        const [ld] = jsonLdOf(page.text);
        assert.equal(ld.name, HOSTILE.title);
      });

      await t.step("every page carries a strict CSP and the security headers", async () => {
        for (const path of ["/", `/events/${rustId}`, "/events/nope"]) {
          const res = await get(server.url, path);
          const csp = res.headers.get("content-security-policy")!;
          assert.match(csp, /script-src 'self'/);
          assert.ok(!csp.includes("unsafe-inline"));
          assert.match(csp, /frame-ancestors 'none'/);
          assert.equal(res.headers.get("x-content-type-options"), "nosniff");
          assert.ok(res.headers.get("referrer-policy"));
          // Every script is a file of ours: no inline code for the CSP to allow.
          const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
          for (const [, attrs, body] of scripts) {
            if (attrs.includes("application/ld+json")) continue;
            assert.match(attrs, /src="\/static\//);
            assert.equal(body, "");
          }
        }
        const css = await get(server.url, "/static/site.css");
        assert.equal(css.status, 200);
        assert.match(css.headers.get("content-type")!, /text\/css/);
      });
    } finally {
      await server.close();
    }
  });
}

Deno.test("[pglite] pages share the public per-address rate limit, and say so in a page", async () => {
  const server = await startTestServer("pglite", { publicRateLimitPerMinute: 2 });
  try {
    const first = await get(server.url, "/");
    assert.match(first.headers.get("ratelimit-policy")!, /"public";q=2;w=60/);
    await get(server.url, "/events.atom");
    const refused = await get(server.url, "/");
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("content-type")!, /text\/html/);
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.ok(refused.headers.get("content-security-policy"), "error pages carry the headers too");
    assert.equal((await get(server.url, "/static/site.css")).status, 200, "assets are not counted");
  } finally {
    await server.close();
  }
});
