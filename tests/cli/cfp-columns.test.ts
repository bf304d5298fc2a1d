/**
 * The CFP fields through the built CLI: CSV columns by their names and the names conference lists
 * use (cfpUrl, cfpEndDate, cfp_deadline), JSON passed through, the refusals reported offline by
 * `events validate`, and X-CFP-URL / X-CFP-CLOSES read from a calendar (docs/feed-formats.md).
 */
import assert from "node:assert/strict";
import { runCli } from "../../dev-support/run-cli.ts";

const DATA = new URL("../fixtures/", import.meta.url).pathname;

interface Conference {
  name: string;
  url: string;
  startDate: string;
  endDate?: string;
  city?: string;
  cfpUrl?: string;
  cfpEndDate?: string;
}

/** Real conferences of tech-conferences/conference-data with a CFP link and deadline. */
async function conferencesWithCfp(): Promise<Conference[]> {
  const list = JSON.parse(
    await Deno.readTextFile(`${DATA}conference-data/2026/javascript.json`),
  ) as Conference[];
  return list.filter((c) =>
    c.cfpUrl?.startsWith("https://") && c.cfpEndDate && c.cfpEndDate < c.startDate
  ).slice(0, 5);
}

const csvCell = (v: string | undefined) => `"${(v ?? "").replaceAll('"', '""')}"`;

async function withFile<T>(name: string, text: string, run: (path: string) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "cfp-cli-" });
  try {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    return await run(`${dir}/${name}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("CSV columns cfpUrl and cfpEndDate of a real conference list fill the CFP fields", async () => {
  const conferences = await conferencesWithCfp();
  assert.ok(conferences.length >= 3, "the fixture has conferences with a CFP");
  const csv = ["name,url,startDate,endDate,city,cfpUrl,cfpEndDate"].concat(
    conferences.map((c) =>
      [c.name, c.url, c.startDate, c.endDate ?? c.startDate, c.city, c.cfpUrl, c.cfpEndDate]
        .map(csvCell).join(",")
    ),
  ).join("\n");
  const run = await withFile("conferences.csv", csv, (path) =>
    runCli([
      "push",
      path,
      "--dry-run",
      "--json",
      "--map",
      "name=title",
      "--map",
      "url=source_url",
      "--map",
      "startDate=starts_at",
      "--map",
      "endDate=ends_at",
      "--id-from",
      "source_url,starts_at",
    ]));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const summary = run.json();
  assert.equal(summary.valid, conferences.length);
  assert.deepEqual(
    summary.events.map((e: Record<string, string>) => [e.cfp_url, e.cfp_closes_at]),
    conferences.map((c) => [c.cfpUrl, c.cfpEndDate]),
  );
});

Deno.test("events validate reports each CFP refusal offline, and a cfp_deadline column is read", async () => {
  const csv = "external_id,title,source_url,starts_at,cfp_url,cfp_deadline,cfp_opens_at\n" +
    "ok,Fine,https://ex.org/ok,2030-01-01T10:00:00Z,https://cfp.ex.org,2029-12-01,\n" +
    "late,Late,https://ex.org/a,2030-01-01T10:00:00Z,https://cfp.ex.org,2030-02-01,\n" +
    "nourl,No URL,https://ex.org/b,2030-01-01T10:00:00Z,,2029-12-01,\n" +
    "order,Order,https://ex.org/c,2030-01-01T10:00:00Z,https://cfp.ex.org,2029-12-01,2029-12-05\n";
  const run = await withFile("cfp.csv", csv, (path) => runCli(["validate", path, "--json"]));
  assert.equal(run.code, 1);
  const result = run.json();
  assert.equal(result.valid, 1);
  const messages = result.problems.map((p: { location: string; message: string }) =>
    `${p.location.split(":").at(-1)} ${p.message}`
  );
  assert.equal(messages.length, 3);
  assert.match(messages[0], /^3 cfp_closes_at \(2030-02-02T11:59:59Z\) is after the event's/);
  assert.match(messages[1], /^4 cfp_closes_at is given without cfp_url: add/);
  assert.match(messages[2], /^5 cfp_opens_at .* is after cfp_closes_at/);
});

Deno.test("JSON passes the CFP fields through; a calendar's X-CFP-URL and X-CFP-CLOSES are read", async () => {
  const json = JSON.stringify([{
    external_id: "j",
    title: "JSON conf",
    source_url: "https://ex.org/j",
    starts_at: "2030-03-01T09:00:00Z",
    cfp_url: "https://cfp.ex.org/j",
    cfp_opens_at: "2029-10-01",
    cfp_closes_at: "2029-12-01T23:59:00+01:00",
  }]);
  const fromJson = await withFile(
    "e.json",
    json,
    (path) => runCli(["push", path, "--dry-run", "--json"]),
  );
  assert.equal(fromJson.code, 0, fromJson.stdout);
  const [event] = fromJson.json().events;
  assert.deepEqual([event.cfp_url, event.cfp_opens_at, event.cfp_closes_at], [
    "https://cfp.ex.org/j",
    "2029-10-01",
    "2029-12-01T23:59:00+01:00",
  ]);
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//cfp//EN",
    "BEGIN:VEVENT",
    "UID:conf-1@example.org",
    "DTSTAMP:20260101T000000Z",
    "DTSTART:20300301T090000Z",
    "SUMMARY:Calendar conf",
    "URL:https://ex.org/ics",
    "X-CFP-URL:https://cfp.ex.org/ics",
    "X-CFP-CLOSES:20291201",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:conf-2@example.org",
    "DTSTAMP:20260101T000000Z",
    "DTSTART:20300401T090000Z",
    "SUMMARY:Too late conf",
    "URL:https://ex.org/ics2",
    "X-CFP-URL:https://cfp.ex.org/ics2",
    "X-CFP-CLOSES:20300501T120000Z",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
  const fromIcs = await withFile(
    "cfp.ics",
    ics,
    (path) => runCli(["push", path, "--dry-run", "--json", "--from", "2026-01-01"]),
  );
  const summary = fromIcs.json();
  assert.equal(summary.valid, 1, fromIcs.stdout);
  assert.deepEqual(
    [summary.events[0].cfp_url, summary.events[0].cfp_closes_at],
    ["https://cfp.ex.org/ics", "2029-12-01"],
  );
  assert.match(summary.problems[0].message, /cfp_closes_at \(2030-05-01T12:00:00Z\) is after/);
});
