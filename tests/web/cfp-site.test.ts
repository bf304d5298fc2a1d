/**
 * Calls for papers on the site: the /cfp page (open CFPs, soonest deadline first, "closes in 3
 * days", topic and place filters, its feeds), the feeds under strict parsers, the CFP on an event's
 * page and the "CFP open" badge on cards; the page in Chromium with axe-core (docs/site.md).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { launchBrowser, seriousViolations } from "../../dev-support/browser.ts";
import { sampleEvent } from "../support/events.ts";
import { get, icsEvents, linksOf, parseXml } from "./support/documents.ts";

const DAY = 86_400_000;
/** `days` and a few minutes from now, so that whole days hold while the test runs. */
const inDays = (days: number) => new Date(Date.now() + days * DAY + 10 * 60_000).toISOString();

function events() {
  const event = (n: number, title: string, extra: Record<string, unknown>) =>
    sampleEvent(n, { title, starts_at: inDays(90), ...extra });
  return [
    event(1, "Elixir Conf Lisbon", {
      city: "Lisbon",
      country: "Portugal",
      topics: ["elixir"],
      cfp_url: "https://cfp.example.org/elixir",
      cfp_closes_at: inDays(3),
    }),
    event(2, "Haskell Days Berlin", {
      city: "Berlin",
      country: "Germany",
      topics: ["haskell"],
      cfp_url: "https://cfp.example.org/haskell",
      cfp_closes_at: inDays(10),
    }),
    event(3, "Elixir Meetup Porto", {
      city: "Porto",
      topics: ["elixir"],
      cfp_url: "https://cfp.example.org/porto",
    }),
    event(4, "Closed Conf", {
      topics: ["elixir"],
      cfp_url: "https://cfp.example.org/closed",
      cfp_closes_at: new Date(Date.now() - 2 * DAY - 10 * 60_000).toISOString(),
    }),
    event(5, "No CFP Meetup", { topics: ["elixir"] }),
  ];
}

const EVENTS = events();

/** The titles of the cards on a page, in order. */
const cardTitles = (html: string) =>
  [...html.matchAll(/<h3><a href="\/events\/[^"]+">([^<]+)<\/a><\/h3>/g)].map((m) => m[1]);

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the calls-for-papers page, feeds, event page and badge`, async (t) => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server, { contributor: "cfp-site@example.org" });
      const pushed = await postBatch(server.url, key.key, { events: EVENTS });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));

      await t.step("/cfp lists open CFPs soonest deadline first, in words", async () => {
        const page = await get(server.url, "/cfp");
        assert.equal(page.status, 200);
        assert.deepEqual(cardTitles(page.text), [
          "Elixir Conf Lisbon",
          "Haskell Days Berlin",
          "Elixir Meetup Porto",
        ]);
        assert.match(page.text, /Closes in 3 days/);
        assert.match(page.text, /Closes in 10 days/);
        assert.match(page.text, /Open, no deadline given/);
        const hrefs = linksOf(page.text).map((l) => l.href);
        assert.ok(hrefs.includes("https://cfp.example.org/elixir"));
        assert.ok(hrefs.includes("/cfp.ics") && hrefs.includes("/cfp.atom"));
      });

      await t.step("/cfp filters by topic and place, and its feed links keep them", async () => {
        const topic = await get(server.url, "/cfp?topic=elixir&city=");
        assert.deepEqual(cardTitles(topic.text), ["Elixir Conf Lisbon", "Elixir Meetup Porto"]);
        assert.ok(linksOf(topic.text).some((l) => l.href === "/cfp.ics?topic=elixir"));
        const place = await get(server.url, "/cfp?country=germany");
        assert.deepEqual(cardTitles(place.text), ["Haskell Days Berlin"]);
        const none = await get(server.url, "/cfp?city=Nowhere");
        assert.match(none.text, /No open calls for papers found/);
      });

      await t.step("/cfp.ics holds one entry per open CFP at its deadline", async () => {
        const feed = await get(server.url, "/cfp.ics");
        assert.equal(feed.status, 200);
        assert.match(feed.headers.get("content-type")!, /^text\/calendar/);
        const entries = icsEvents(feed.text);
        // A CFP without a deadline has no day to be on.
        assert.deepEqual(entries.map((e) => e.summary), [
          "CFP closes: Elixir Conf Lisbon",
          "CFP closes: Haskell Days Berlin",
        ]);
        const [first] = entries;
        assert.equal(
          first.startDate.toJSDate().getTime(),
          new Date(EVENTS[0].cfp_closes_at as string).setUTCMilliseconds(0),
        );
        assert.equal(
          first.component.getFirstPropertyValue("url"),
          "https://cfp.example.org/elixir",
        );
        const eventFeed = icsEvents((await get(server.url, "/events.ics?topic=elixir")).text);
        const own = eventFeed.find((e) => e.summary === "Elixir Conf Lisbon")!;
        assert.match(first.uid, /^cfp-/);
        assert.notEqual(first.uid, own.uid);
        assert.equal(first.uid, `cfp-${own.uid}`);
        const filtered = icsEvents((await get(server.url, "/cfp.ics?country=Germany")).text);
        assert.deepEqual(filtered.map((e) => e.summary), ["CFP closes: Haskell Days Berlin"]);
        const refused = await get(server.url, "/cfp.ics?cfp_closes_before=soon");
        assert.equal(refused.status, 400);
      });

      await t.step("/cfp.atom is well-formed XML with an entry per open CFP", async () => {
        const feed = await get(server.url, "/cfp.atom?topic=elixir");
        assert.match(feed.headers.get("content-type")!, /^application\/atom\+xml/);
        const titles = parseXml(feed.text).elements.filter((e) => e.name === "title")
          .map((e) => e.text);
        assert.deepEqual(titles, [
          "Calls for papers: topic elixir",
          "CFP closes: Elixir Conf Lisbon",
          "CFP closes: Elixir Meetup Porto",
        ]);
      });

      await t.step("an event's page shows its CFP; cards carry a CFP open badge", async () => {
        const list = await (await fetch(`${server.url}/api/v1/events?cfp=any&sort=cfp_closes_at`))
          .json();
        const closed = list.data.find((e: { title: string }) => e.title === "Closed Conf");
        const open = list.data.find((e: { title: string }) => e.title === "Elixir Conf Lisbon");
        const openPage = await get(server.url, `/events/${open.id}`);
        assert.match(openPage.text, /Call for papers/);
        assert.match(openPage.text, /Closes in 3 days/);
        assert.ok(linksOf(openPage.text).some((l) => l.href === "https://cfp.example.org/elixir"));
        const closedPage = await get(server.url, `/events/${closed.id}`);
        assert.match(closedPage.text, /Closed 2 days ago/);
        const home = await get(server.url, "/?topic=elixir");
        const badges = [...home.text.matchAll(/<li class="badge cfp">CFP open<\/li>/g)];
        assert.equal(badges.length, 2, "Lisbon and Porto are open; closed and none are not");
      });

      await t.step("the page passes axe-core in Chromium", async () => {
        const browser = await launchBrowser();
        try {
          const page = await browser.newPage();
          await page.goto(`${server.url}/cfp?topic=elixir`);
          assert.deepEqual(await seriousViolations(page), []);
          await page.getByLabel("Topic", { exact: true }).fill("haskell");
          await page.getByRole("button", { name: "Show calls for papers" }).click();
          await page.waitForURL(/topic=haskell/);
          assert.equal(await page.getByRole("heading", { level: 3 }).count(), 1);
          assert.deepEqual(await seriousViolations(page), []);
        } finally {
          await browser.close();
        }
      });
    } finally {
      await server.close();
    }
  });
}
