/**
 * The whole journey in a real browser (headless Chromium), with axe-core on every page: a
 * contributor signs up, generates a key, pushes events through the API and through the built CLI,
 * finds them on the site by listing, search and filters, opens an event page (its JSON-LD parsed)
 * and subscribes to a search's ICS feed (parsed with ical.js); an operator confirms, reviews the
 * key's first batch and trusts it, and the events enter semantic search; the contributor revokes
 * the key, and the API answers 401. AI search runs on the OpenAI protocol against a local fake.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { runCli } from "../../dev-support/run-cli.ts";
import { eventually } from "../search/support.ts";
import { icsEvents } from "./support/documents.ts";
import { launchBrowser, seriousViolations } from "../../dev-support/browser.ts";

const PASSWORD = "correct horse battery staple";
const KNITTING = {
  external_id: "knit-2031",
  source_url: "https://knitters.example.org/2031",
  title: "Quantum Knitting Symposium",
  description: "Wool, needles and qubits: patterns for entangled scarves.",
  starts_at: "2031-05-14T19:00:00",
  ends_at: "2031-05-14T22:00:00",
  timezone: "Europe/Berlin",
  venue_name: "Wollhaus",
  city: "Berlin",
  country: "Germany",
  latitude: 52.52,
  longitude: 13.405,
  topics: ["knitting", "quantum computing"],
  is_free: false,
  price_min: 12,
  currency: "EUR",
  organiser_name: "Berlin Knitters",
};
const ROBOTS = {
  external_id: "robots-2031",
  source_url: "https://robots.example.org/2031",
  title: "Underwater Robotics Hackathon",
  description: "Build submarine drones that map coral reefs.",
  starts_at: "2031-06-02T09:00:00Z",
  city: "Lisbon",
  country: "Portugal",
  topics: ["robotics"],
};

/** Opens a page, checks it with axe-core and for CSP refusals, and returns it. */
async function visit(page: Page, url: string, problems: string[]): Promise<void> {
  await page.goto(url);
  await check(page, problems);
}

async function check(page: Page, problems: string[]): Promise<void> {
  for (const v of await seriousViolations(page)) {
    problems.push(`${page.url()}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
  }
}

function watchConsole(page: Page, problems: string[]): void {
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`${page.url()}: ${message.text()}`);
    }
  });
}

async function newVisitor(browser: Browser, problems: string[]) {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  watchConsole(page, problems);
  return { context, page };
}

async function signUp(page: Page, server: TestServer, email: string, problems: string[]) {
  await visit(page, `${server.url}/`, problems);
  await page.getByRole("link", { name: "Sign up" }).click();
  await check(page, problems);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard/);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the journey of a contributor and an operator, in a browser`, async (t) => {
    const fake = startFakeOpenAI();
    const server = await startTestServer(kind, {
      operatorEmails: ["op@example.org"],
      embeddings: fake.embeddingSettings(32),
    });
    const browser = await launchBrowser();
    const problems: string[] = [];
    try {
      const health = await (await fetch(`${server.url}/healthz`)).json();
      const aiSearch = health.ai_search.available === true;
      const { page } = await newVisitor(browser, problems);
      let key = "";

      await t.step("sign up and generate a key, shown once with a copy button", async () => {
        await signUp(page, server, "ada@example.org", problems);
        await check(page, problems);
        await page.getByLabel("Name", { exact: true }).fill("knitting feed");
        await page.getByLabel("Expires").selectOption("30");
        await page.getByRole("button", { name: "Generate key" }).click();
        await check(page, problems);
        key = (await page.locator("#new-key").textContent())!.trim();
        assert.match(key, /^evk_/);
        await page.getByRole("button", { name: "Copy key" }).click();
        // deno-lint-ignore no-explicit-any
        const clipboard = () => (globalThis as any).navigator.clipboard.readText();
        assert.equal(await page.evaluate(clipboard), key);
        assert.ok((await page.locator("#cli-command").textContent())!.includes(key));
      });

      await t.step("push one event through the API and one through the CLI", async () => {
        const api = await fetch(`${server.url}/api/v1/events`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ events: [KNITTING] }),
        });
        assert.equal(api.status, 200, await api.text());
        const dir = await Deno.makeTempDir({ prefix: "journey-" });
        try {
          await Deno.writeTextFile(`${dir}/events.json`, JSON.stringify([ROBOTS]));
          const cli = await runCli(["push", `${dir}/events.json`, "--api-url", server.url], {
            env: { EVENTS_API_KEY: key },
          });
          assert.equal(cli.code, 0, cli.stderr + cli.stdout);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });

      await t.step("find the events on the home page, by search and by filters", async () => {
        await visit(page, `${server.url}/`, problems);
        const titles = await page.locator(".event-list h3").allTextContents();
        assert.deepEqual(titles, [KNITTING.title, ROBOTS.title]);
        await page.getByRole("searchbox", { name: "Search" }).fill("entangled scarves");
        if (aiSearch) await page.getByLabel("Exact words").check();
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await check(page, problems);
        assert.deepEqual(await page.locator(".event-list h3").allTextContents(), [KNITTING.title]);
        await page.getByRole("searchbox", { name: "Search" }).fill("");
        await page.locator("summary", { hasText: "Filters" }).click();
        await page.getByLabel("City").fill("lisbon");
        await page.getByRole("button", { name: "Apply filters" }).click();
        await check(page, problems);
        assert.deepEqual(await page.locator(".event-list h3").allTextContents(), [ROBOTS.title]);
        await page.getByLabel("City").fill("Atlantis");
        await page.getByRole("button", { name: "Apply filters" }).click();
        await check(page, problems);
        assert.match(await page.locator(".empty").textContent() ?? "", /No events found/);
      });

      await t.step("open the event page: details and its JSON-LD", async () => {
        await visit(page, `${server.url}/?q=knitting&mode=text`, problems);
        await page.getByRole("link", { name: KNITTING.title, exact: true }).click();
        await check(page, problems);
        assert.equal(await page.locator("h1").textContent(), KNITTING.title);
        const ld = JSON.parse(
          (await page.locator('script[type="application/ld+json"]').textContent())!,
        );
        assert.equal(ld["@type"], "Event");
        assert.equal(ld.name, KNITTING.title);
        assert.equal(ld.startDate, "2031-05-14T19:00:00+02:00");
        assert.equal(ld.location.address.addressLocality, "Berlin");
        assert.equal(ld.offers.price, 12);
        assert.equal(ld.organizer.name, "Berlin Knitters");
        // The browser runs in UTC: the visitor's own time is added by the script.
        assert.match(
          await page.locator(".local-time").textContent() ?? "",
          /Your time: .*(17:00|0?5:00\sPM)/,
        );
      });

      await t.step("subscribe to the ICS feed of a search", async () => {
        await visit(page, `${server.url}/?q=knitting&mode=text&city=Berlin`, problems);
        const webcal = await page.getByRole("link", { name: "Calendar app (webcal)" })
          .getAttribute("href");
        assert.match(webcal!, /^webcal:\/\/127\.0\.0\.1:\d+\/events\.ics\?q=knitting&city=Berlin$/);
        const href = await page.getByRole("link", { name: "iCalendar file" }).getAttribute("href");
        const feed = await fetch(`${server.url}${href}`);
        const events = icsEvents(await feed.text());
        assert.deepEqual(events.map((e) => e.summary), [KNITTING.title]);
        assert.equal(events[0].startDate.toJSDate().toISOString(), "2031-05-14T17:00:00.000Z");
      });

      await t.step("the operator trusts the key from the review queue", async () => {
        const operator = await newVisitor(browser, problems);
        await signUp(operator.page, server, "op@example.org", problems);
        await check(operator.page, problems);
        await operator.page.getByLabel("Operator key").fill(server.adminKey);
        await operator.page.getByRole("button", { name: "Confirm operator access" }).click();
        await operator.page.getByRole("link", { name: "review queue" }).first().click();
        await check(operator.page, problems);
        const review = operator.page.locator("article.review");
        assert.equal(await review.count(), 1);
        assert.match(await review.locator("h2").textContent() ?? "", /knitting feed/);
        assert.deepEqual(await review.locator(".event-list h3").allTextContents(), [
          KNITTING.title,
        ]);
        await review.getByRole("button", { name: "Trust: into AI search" }).click();
        await check(operator.page, problems);
        assert.match(await operator.page.locator(".notice").textContent() ?? "", /Trusted/);
        await operator.context.close();
      });

      if (aiSearch) {
        await t.step(
          "the trusted events enter semantic search and show similar events",
          async () => {
            await eventually("the events are found by meaning", async () => {
              const r = await fetch(
                `${server.url}/api/v1/search?q=${encodeURIComponent(KNITTING.title)}&mode=semantic`,
              );
              const body = await r.json();
              return body.data?.[0]?.event.external_id === KNITTING.external_id &&
                body.data.length === 2;
            });
            await visit(page, `${server.url}/?q=${encodeURIComponent(KNITTING.title)}`, problems);
            assert.equal(await page.getByLabel("Words and meaning").isChecked(), true);
            assert.equal(
              await page.locator(".event-list h3").first().textContent(),
              KNITTING.title,
            );
            await page.getByRole("link", { name: KNITTING.title, exact: true }).click();
            assert.deepEqual(
              await page.locator("#similar-heading + .event-list h3").allTextContents(),
              [ROBOTS.title],
            );
            await visit(page, `${server.url}/dashboard`, problems);
            assert.deepEqual(
              await page.locator("table").nth(1).locator("tbody td:nth-child(4)").allTextContents(),
              ["Yes", "Yes"],
            );
          },
        );
      }

      await t.step("pages are as accessible at phone width", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        for (const path of ["/dashboard", "/", "/?q=knitting&mode=text", "/events/gone"]) {
          await visit(page, `${server.url}${path}`, problems);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
      });

      await t.step("revoke the key after confirming; the API answers 401", async () => {
        await visit(page, `${server.url}/dashboard`, problems);
        await page.getByRole("link", { name: "Revoke knitting feed" }).click();
        await check(page, problems);
        await page.getByRole("button", { name: "Revoke key" }).click();
        await check(page, problems);
        assert.match(await page.locator(".notice").first().textContent() ?? "", /revoked/);
        const refused = await fetch(`${server.url}/api/v1/events`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ events: [KNITTING] }),
        });
        assert.equal(refused.status, 401);
        await refused.body?.cancel();
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL(`${server.url}/`);
        await visit(page, `${server.url}/sign-in`, problems);
      });

      await t.step("a mistyped address: the 404 page offers a search", async () => {
        const missing = await page.goto(`${server.url}/evnets`);
        assert.equal(missing?.status(), 404);
        await check(page, problems);
        await page.getByLabel("Search events").fill("knitting");
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await page.waitForURL(/\/\?q=knitting/);
        await check(page, problems);
      });

      assert.deepEqual(problems, [], "no serious accessibility violation, no CSP refusal");
    } finally {
      await browser.close();
      await server.close();
      await fake.close();
    }
  });
}
