/**
 * The site's alerts in Chromium: "Save this search" from a search page, "My alerts" with pause,
 * test delivery (seen at a real webhook receiver), the latest deliveries, and delete; every page
 * free of serious accessibility problems (axe-core).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { launchBrowser, seriousViolations } from "../../dev-support/browser.ts";
import { startTestServer } from "../../dev-support/test-server.ts";
import { alertSettings, eventually, startReceiver } from "./support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] saving a search and managing it on My alerts`, async () => {
    const receiver = startReceiver();
    const server = await startTestServer(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true }),
      alertWorker: { pollMs: 100 },
      embeddingWorker: "external",
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const accessible = async (what: string) =>
        assert.deepEqual(await seriousViolations(page), [], what);
      await page.goto(`${server.url}/sign-up`);
      await page.fill("input[name=email]", "saver@example.org");
      await page.fill("input[name=password]", "a long enough password 2");
      await page.click("form[action='/sign-up'] button[type=submit]");
      await page.waitForURL(/\/dashboard/);

      await page.goto(`${server.url}/?q=rust&city=Berlin`);
      await page.click("text=Save this search");
      await page.waitForURL(/\/alerts\/new\?/);
      await accessible("the save form");
      await page.fill("#alert-name", "Rust in Berlin");
      await page.fill("#alert-webhook", receiver.url);
      await page.click("form[action='/alerts'] button[type=submit]");
      await page.waitForSelector("text=shown only now");
      assert.match(await page.textContent("main") ?? "", /whsec_/);
      assert.match(await page.textContent("main") ?? "", /Rust in Berlin/);
      assert.match(await page.textContent("main") ?? "", /city: Berlin/);
      await accessible("My alerts with a search");

      await page.click("button[aria-label='Test: Rust in Berlin']");
      await page.waitForURL(/tested=1/);
      await eventually("the test notice reaches the webhook", () => receiver.received.length === 1);
      assert.equal(JSON.parse(receiver.received[0].body).type, "alert.test");
      await eventually("the delivery shows as delivered", async () => {
        await page.goto(`${server.url}/alerts`);
        return (await page.textContent("main") ?? "").includes("delivered (HTTP 200)");
      });

      await page.click("button[aria-label='Pause: Rust in Berlin']");
      await page.waitForURL(/paused=1/);
      assert.match(await page.textContent("main") ?? "", /Paused · Mail: off/);
      await accessible("My alerts, paused");

      await page.click("button[aria-label='Delete: Rust in Berlin']");
      await page.waitForURL(/deleted=1/);
      assert.match(await page.textContent("main") ?? "", /No saved searches yet/);
    } finally {
      await browser.close();
      await server.close();
      await receiver.close();
    }
  });
}
