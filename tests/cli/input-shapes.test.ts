/**
 * Inputs people actually have: European spreadsheet exports, tab-separated files, one column for
 * several fields, no id column, conference lists with dates only, misspelt fields, webcal links.
 */
import assert from "node:assert/strict";
import { DATA, readFile, readText, valid } from "./support/read-file.ts";
import { parseFieldMap } from "../../cli/readers/field-map.ts";
import { runCli } from "../../dev-support/run-cli.ts";

const OWN = `${DATA}cli/`;

function messagesOf(records: Awaited<ReturnType<typeof readText>>): string[] {
  return records.flatMap((r) => (r.kind === "invalid" ? r.messages : []));
}

Deno.test("a semicolon CSV with decimal commas is read without --delimiter", async () => {
  const fieldMap = parseFieldMap([
    "Titel=title",
    "Link=source_url",
    "Link=external_id",
    "Beginn=starts_at",
    "Stadt=city",
    "Preis ab=price_min",
    "Notizen=description",
  ]);
  const records = await readFile(`${OWN}european.csv`, {
    fieldMap,
    timezone: "Europe/Berlin",
    delimiter: undefined,
  });
  assert.deepEqual(messagesOf(records), []);
  const [rust, python] = valid(records);
  assert.deepEqual(
    [rust.title, rust.external_id, rust.source_url, rust.city, rust.price_min, rust.description],
    [
      "Rust-Treffen; Herbst",
      "https://ex.org/rust",
      "https://ex.org/rust",
      "Köln",
      12.5,
      // The file's CRLF inside the quoted cell is stored as \n.
      "erste Zeile\nzweite Zeile",
    ],
  );
  assert.equal(python.price_min, 1250);
  assert.equal(python.starts_at, "2030-10-08 18:30");
});

Deno.test("tab-separated files are found from the header; --delimiter names any other", async () => {
  const tabs = valid(
    await readFile(`${OWN}tabs.tsv`, { fieldMap: parseFieldMap([]), idFrom: ["source_url"] }),
  );
  assert.deepEqual(tabs.map((e) => e.title), ["Go night", "Elixir day"]);
  const piped =
    "external_id|title|source_url|starts_at\na|A, with comma|https://ex.org/a|2030-01-01T10:00:00Z\n";
  assert.deepEqual(valid(await readText("csv", piped, { delimiter: "|" })).map((e) => e.title), [
    "A, with comma",
  ]);
  // A header with more commas than semicolons is read as commas unless told.
  const run = await runCli([
    "validate",
    `${OWN}tabs.tsv`,
    "--format",
    "csv",
    "--delimiter",
    "tab",
    "--id-from",
    "title,starts_at",
    "--json",
  ]);
  assert.equal(run.code, 0, run.stdout);
  assert.equal(run.json().valid, 2);
});

Deno.test("--id-from makes a stable external_id from chosen fields, and says when one is empty", async () => {
  const csv = "title,source_url,starts_at\nMeetup,https://ex.org/a,2030-01-01T10:00:00Z\n" +
    ",https://ex.org/b,2030-01-02T10:00:00Z\n";
  const first = await readText("csv", csv, { idFrom: ["title", "starts_at"] });
  const again = await readText("csv", csv, { idFrom: ["title", "starts_at"] }, 3);
  const id = valid(first)[0].external_id as string;
  assert.match(id, /^id-[0-9a-f]{32}$/);
  assert.equal(valid(again)[0].external_id, id);
  assert.deepEqual(messagesOf(first), [
    "cannot make external_id: title is empty (--id-from title,starts_at)",
  ]);
  // A record with its own id keeps it.
  const own = await readText(
    "ndjson",
    JSON.stringify({
      external_id: "mine",
      title: "T",
      source_url: "https://ex.org/t",
      starts_at: "2030-01-01T10:00:00Z",
    }),
    { idFrom: ["title"] },
  );
  assert.equal(valid(own)[0].external_id, "mine");
});

Deno.test("a conference list maps with --map and its dates become all-day events", async () => {
  const fieldMap = parseFieldMap([
    "name=title",
    "url=source_url",
    "url=external_id",
    "startDate=starts_at",
    "endDate=ends_at",
    "online=is_virtual",
    "locales=",
  ]);
  const events = valid(await readFile(`${OWN}conferences.json`, { fieldMap }));
  assert.deepEqual(events.map((e) => [e.title, e.starts_at, e.ends_at, e.is_virtual]), [
    // The end date is the last day: the event ends at the midnight after it.
    ["Axe-con", "2026-02-24T00:00:00Z", "2026-02-26T00:00:00Z", true],
    ["Webinale", "2026-06-08T00:00:00Z", "2026-06-13T00:00:00Z", true],
    // No end date: one day, as an ICS all-day event without DTEND.
    ["One-day summit", "2026-09-10T00:00:00Z", "2026-09-11T00:00:00Z", undefined],
  ]);
  const berlin = valid(
    await readFile(`${OWN}conferences.json`, { fieldMap, timezone: "Europe/Berlin" }),
  );
  assert.deepEqual([berlin[1].starts_at, berlin[1].timezone], [
    "2026-06-08T00:00:00",
    "Europe/Berlin",
  ]);
  const run = await runCli([
    "push",
    `${OWN}conferences.json`,
    "--dry-run",
    "--json",
    "--timezone",
    "Europe/Berlin",
    ...[
      "name=title",
      "url=source_url",
      "url=external_id",
      "startDate=starts_at",
      "endDate=ends_at",
      "online=is_virtual",
      "locales=",
      "city=city",
      "country=country",
    ].flatMap((m) => ["--map", m]),
  ]);
  assert.equal(run.code, 0, run.stdout);
  assert.equal(run.json().events[1].starts_at, "2026-06-08T00:00:00");
});

Deno.test("--map works for NDJSON, and an unknown field gets a did-you-mean", async () => {
  const line = JSON.stringify({
    id: "n1",
    titel: "Typo",
    source_url: "https://ex.org/n1",
    starts_at: "2030-01-01T10:00:00Z",
  });
  const records = await readText("ndjson", line, { fieldMap: parseFieldMap(["id=external_id"]) });
  assert.deepEqual(messagesOf(records), [
    'title is required: add "title" (or --map FIELD=title)',
    "titel is not an event field (did you mean title?): rename the field, map it with --map titel=FIELD, or drop it with --map titel=",
  ]);
  const fixed = await readText("ndjson", line, {
    fieldMap: parseFieldMap(["id=external_id", "titel=title"]),
  });
  assert.equal(valid(fixed)[0].title, "Typo");
});

Deno.test("a misspelt CSV header and a misspelt --map target get a did-you-mean", async () => {
  const bad = await runCli(["validate", "-", "--format", "csv", "--json"], {
    stdin: "external_id,titel,source_url,starts_at\n",
  });
  assert.equal(bad.code, 2);
  assert.match(bad.json().error, /"titel" \(did you mean title\?\) is not an event field/);
  const map = await runCli(["validate", "x.csv", "--map", "Name=titel", "--json"]);
  assert.equal(map.code, 2);
  assert.match(
    map.json().error,
    /--map Name=titel: titel is not an event field \(did you mean title\?\)/,
  );
});

Deno.test("webcal:// links are fetched over https", async () => {
  const cert = await Deno.readTextFile(`${OWN}test-tls-cert.pem`);
  const key = await Deno.readTextFile(`${OWN}test-tls-key.pem`);
  const calendar = await Deno.readTextFile(`${OWN}small.ics`);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", cert, key, onListen: () => {} },
    () => new Response(calendar, { headers: { "content-type": "text/calendar" } }),
  );
  try {
    const port = server.addr.port;
    const run = await runCli(
      [
        "push",
        `webcal://127.0.0.1:${port}/meetups.ics`,
        "--dry-run",
        "--from",
        "2030-03-01",
        "--json",
      ],
      { env: { NODE_EXTRA_CA_CERTS: `${OWN}test-tls-cert.pem` } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const summary = run.json();
    assert.equal(summary.valid, 4);
    assert.equal(summary.events[1].source_url, "https://meetups.example.org/ts");
    assert.equal(summary.source, `https://127.0.0.1:${port}/meetups.ics`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a date-only value that does not exist is an invalid record, not an all-day event", async () => {
  const line = JSON.stringify({
    external_id: "x",
    title: "X",
    source_url: "https://ex.org/x",
    starts_at: "2026-02-30",
  });
  assert.deepEqual(messagesOf(await readText("ndjson", line)), [
    'starts_at "2026-02-30" is not a real date: check the day of the month',
  ]);
});
