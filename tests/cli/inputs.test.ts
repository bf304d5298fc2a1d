/** Inputs other than files, and the offline commands, through the built CLI. */
import assert from "node:assert/strict";
import { sampleEvent } from "../support/events.ts";
import { runCli } from "../../dev-support/run-cli.ts";

const DATA = new URL("../fixtures/", import.meta.url).pathname;

Deno.test("stdin with --dry-run validates and shows what would be sent, without a key", async () => {
  const lines = [sampleEvent(1), sampleEvent(2)].map((e) => JSON.stringify(e)).join("\n");
  const run = await runCli(["push", "-", "--dry-run", "--json"], { stdin: lines });
  assert.equal(run.code, 0, run.stderr);
  const summary = run.json();
  assert.deepEqual([summary.format, summary.valid, summary.batches, summary.dry_run], [
    "ndjson",
    2,
    0,
    true,
  ]);
  assert.deepEqual(summary.events.map((e: { external_id: string }) => e.external_id), [
    "evt-1",
    "evt-2",
  ]);
  const table = await runCli(["push", "-", "--dry-run"], { stdin: lines });
  assert.match(table.stdout, /Tech talk number 2/);
  assert.ok(!table.stdout.includes("\u001b["), "no colour codes when stdout is not a terminal");
});

Deno.test("a calendar fetched from a URL takes the feed URL as source_url", async () => {
  const calendar = await Deno.readFile(`${DATA}ics-node-ical/google-calendar-kiev-tz.ics`);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request) =>
      new URL(request.url).pathname === "/gone.ics"
        ? new Response("not here", { status: 404 })
        : new Response(calendar, { headers: { "content-type": "text/calendar" } }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/team/calendar`;
    const run = await runCli(["push", url, "--dry-run", "--from", "2016-08-01", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const summary = run.json();
    assert.equal(summary.format, "ics");
    assert.equal(summary.events.length, 4);
    for (const event of summary.events) assert.equal(event.source_url, url);
    const wrongFormat = await runCli([
      "validate",
      `http://127.0.0.1:${server.addr.port}`,
      "--format",
      "csv",
    ]);
    // Read as CSV, the calendar's first line is a header with no event field: an input error.
    assert.equal(wrongFormat.code, 2);
    assert.match(wrongFormat.stderr, /"BEGIN:VCALENDAR" is not an event field/);
    const missing = await runCli([
      "validate",
      `http://127.0.0.1:${server.addr.port}/gone.ics`,
      "--json",
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.json().error, /gone\.ics: the server answered 404/);
    assert.equal(missing.stderr.trim().split("\n").length, 1, "the error alone");
  } finally {
    await server.shutdown();
  }
});

Deno.test("validate exits 2 for a missing file and an unknown option, 1 for invalid records", async () => {
  assert.equal((await runCli(["validate", "/nonexistent/feed.ics"])).code, 2);
  assert.equal((await runCli(["validate", "x.ics", "--no-such-option"])).code, 2);
  const invalid = await runCli(["validate", `${DATA}ics-node-ical/Office-2012-owa.ics`, "--json"]);
  assert.equal(invalid.code, 1);
  assert.equal(invalid.json().invalid, 4);
});
