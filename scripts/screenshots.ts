/**
 * PNG screenshots of the site at phone and desktop widths, for looking at the pages before calling
 * them done: home, a search, an event page, sign-in, the dashboard, a new key, the review queue.
 * Runs the real server on a fresh embedded database with real conferences (tests/fixtures) and AI
 * search on the OpenAI protocol against the local fake; drives headless Chromium.
 *
 *   deno run -A scripts/screenshots.ts [--out screenshots]
 */
import { parseArgs } from "node:util";
import type { Browser, Page } from "playwright-core";
import { generateApiKey } from "../shared/api-key-format.ts";
import { startService } from "../server/serve.ts";
import { configWith } from "../server/config.ts";
import { startFakeOpenAI } from "../dev-support/fake-openai.ts";
import { launchBrowser } from "../dev-support/browser.ts";
import { readConferenceData } from "./support/conference-events.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { out: { type: "string", default: "screenshots" } },
});
const OUT = values.out;
const PASSWORD = "correct horse battery staple";
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

const FEATURED = {
  external_id: "rust-berlin-2027-03",
  source_url: "https://rust.example.org/meetups/2027-03",
  title: "Rust Berlin: ownership in practice",
  description:
    "Two talks on borrowing, lifetimes and unsafe code, then drinks.\n\n19:00 doors\n19:30 “Lifetimes without tears”\n20:15 “When unsafe is the safe choice”",
  starts_at: "2027-03-11T19:00:00",
  ends_at: "2027-03-11T22:00:00",
  timezone: "Europe/Berlin",
  venue_name: "c-base",
  city: "Berlin",
  country: "Germany",
  latitude: 52.5129,
  longitude: 13.4201,
  is_hybrid: true,
  is_free: false,
  price_min: 5,
  price_max: 15,
  currency: "EUR",
  event_type: "meetup",
  topics: ["rust", "systems programming"],
  tags: ["talks", "beginner friendly"],
  organiser_name: "Rust Berlin",
  organiser_url: "https://rust.example.org/",
  attendee_count: 64,
  capacity: 120,
};

async function shoot(browser: Browser, name: string, url: string, cookies: string[] = []) {
  for (const [label, viewport] of Object.entries(WIDTHS)) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await context.addCookies(cookies.map((c) => {
      const [n, v] = c.split("=");
      return { name: n, value: v, url };
    }));
    const page = await context.newPage();
    await page.goto(url);
    await page.screenshot({ path: `${OUT}/${name}-${label}.png`, fullPage: true });
    // The first screen alone, as a visitor sees it before scrolling.
    await page.screenshot({ path: `${OUT}/${name}-${label}-first-screen.png` });
    await context.close();
  }
}

async function signUp(page: Page, base: string, email: string): Promise<string> {
  await page.goto(`${base}/sign-up`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/dashboard/);
  const session = (await page.context().cookies()).find((c) => c.name === "session")!;
  return `session=${session.value}`;
}

async function push(base: string, key: string, events: unknown[]) {
  for (let i = 0; i < events.length; i += 100) {
    const res = await fetch(`${base}/api/v1/events`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ events: events.slice(i, i + 100) }),
    });
    if (res.status !== 200) throw new Error(`Cannot push: ${res.status} ${await res.text()}`);
  }
}

await Deno.mkdir(OUT, { recursive: true });
const dataDir = await Deno.makeTempDir({ prefix: "screenshots-" });
const fake = startFakeOpenAI();
const adminKey = generateApiKey();
const service = await startService(configWith({
  port: 0,
  host: "127.0.0.1",
  dataDir,
  adminApiKey: adminKey,
  defaultRateLimitPerMinute: 600,
  publicRateLimitPerMinute: 100_000,
  trustProxy: false,
  logRequests: false,
  operatorEmails: ["operator@example.org"],
  embeddings: fake.embeddingSettings(64),
}));
const base = service.url.replace("localhost", "127.0.0.1");
const browser = await launchBrowser();
try {
  const contributor = await (await browser.newContext()).newPage();
  const ada = await signUp(contributor, base, "ada@example.org");
  await contributor.getByLabel("Name", { exact: true }).fill("conference feed");
  await contributor.getByRole("button", { name: "Generate key" }).click();
  const key = (await contributor.locator("#new-key").textContent())!.trim();
  await contributor.screenshot({ path: `${OUT}/new-key-desktop.png`, fullPage: true });

  const now = new Date().toISOString();
  const conferences = (await readConferenceData()).events.filter((e) => e.starts_at > now);
  await push(base, key, [FEATURED, ...conferences.slice(0, 60)]);

  const operatorPage = await (await browser.newContext()).newPage();
  const operator = await signUp(operatorPage, base, "operator@example.org");
  await operatorPage.getByLabel("Operator key").fill(adminKey);
  await operatorPage.getByRole("button", { name: "Confirm operator access" }).click();
  await shoot(browser, "review", `${base}/review`, [operator]);

  const keyId = /\/review\/keys\/([0-9a-f-]{36})\/trust/.exec(
    await (await fetch(`${base}/review`, { headers: { Cookie: operator } })).text(),
  )?.[1];
  await fetch(`${base}/api/v1/admin/keys/${keyId}/trust`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminKey}` },
  });
  for (let i = 0; i < 300; i++) {
    const health = await (await fetch(`${base}/healthz`)).json();
    if (health.ai_search?.waiting_for_vectors === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  const [featured] =
    (await (await fetch(`${base}/api/v1/events?external_id=${FEATURED.external_id}`))
      .json()).data;
  await shoot(browser, "home", `${base}/`);
  await shoot(browser, "search", `${base}/?q=rust&attendance=in_person`);
  await shoot(browser, "search-empty", `${base}/?q=knitting&city=Atlantis`);
  await shoot(browser, "event", `${base}/events/${featured.id}`);
  await shoot(browser, "sign-in", `${base}/sign-in`);
  await shoot(browser, "dashboard", `${base}/dashboard`, [ada]);
  console.log(`Screenshots in ${OUT}/`);
} finally {
  await browser.close();
  await service.shutdown();
  await fake.close();
  await Deno.remove(dataDir, { recursive: true });
}
