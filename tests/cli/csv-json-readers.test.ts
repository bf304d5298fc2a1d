/** CSV, JSON and NDJSON readers: edge cases of real exports, fed in small chunks. */
import assert from "node:assert/strict";
import { readText, valid } from "./support/read-file.ts";
import { DATA, readFile } from "./support/read-file.ts";
import { InputError } from "../../cli/errors.ts";
import { readCsv } from "../../cli/readers/csv.ts";
import { parseFieldMap } from "../../cli/readers/field-map.ts";

const READ_OPTIONS = {
  sourceName: "input",
  horizonDays: 365,
  from: new Date(),
  fieldMap: new Map(),
};

const HEADER = "external_id,title,source_url,starts_at";

Deno.test("CSV with BOM, CRLF and a quoted multi-line cell reads each row with its start line", async () => {
  const csv = `\uFEFF${HEADER},categories,is_virtual,capacity\r\n` +
    `a,"Talk, with comma",https://ex.org/a,2030-01-01T10:00:00Z,ai; ml |data,Yes,"1,200"\r\n` +
    `b,"Line one\r\nline ""two""",https://ex.org/b,2030-01-02T10:00:00Z,,no,40\r\n` +
    `c,Third,https://ex.org/c,2030-01-03T10:00:00Z,,,\r\n`;
  const records = await readText("csv", csv);
  assert.deepEqual(records.map((r) => [r.kind, r.location]), [
    ["valid", "input:2"],
    ["valid", "input:3"],
    ["valid", "input:5"],
  ]);
  const [a, b, c] = valid(records);
  assert.deepEqual([a.title, a.categories, a.is_virtual, a.capacity], [
    "Talk, with comma",
    ["ai", "ml", "data"],
    true,
    1200,
  ]);
  // Line breaks inside quoted cells are stored as \n, whatever the file used.
  assert.deepEqual([b.title, b.is_virtual], ['Line one\nline "two"', false]);
  assert.equal("capacity" in c, false);
});

Deno.test("CSV rows keep their line numbers across blank lines, and rows before a broken quote are read", async () => {
  const csv = `${HEADER}\n\na,A,https://ex.org/a,2030-01-01T10:00:00Z\n\n\n` +
    `b,"B\r\n\r\nb",https://ex.org/b,2030-01-01T10:00:00Z\n` +
    `c,C,https://ex.org/c,2030-01-01T10:00:00Z\n` +
    `d,"never closed,https://ex.org/d,2030-01-01T10:00:00Z\n`;
  for (const chunkSize of [1, 5, 4096]) {
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        async function* chunks() {
          for (let i = 0; i < csv.length; i += chunkSize) yield csv.slice(i, i + chunkSize);
        }
        for await (const item of readCsv(chunks(), READ_OPTIONS)) seen.push(item.location);
      },
      (e) =>
        e instanceof InputError &&
        /a quoted cell is never closed \(it opens on line 10\)/.test(e.message),
    );
    assert.deepEqual(seen, ["input:3", "input:6", "input:9"]);
  }
});

Deno.test("CSV headers map with --map, and an unknown header stops before any row", async () => {
  const csv = "ID,Name,Link,Start,Notes\nx,Meetup,https://ex.org/x,2030-01-01T10:00:00Z,internal\n";
  const fieldMap = parseFieldMap([
    "ID=external_id",
    "Name=title",
    "Link=source_url",
    "Start=starts_at",
    "Notes=",
  ]);
  const events = valid(await readText("csv", csv, { fieldMap }));
  assert.deepEqual(events, [{
    external_id: "x",
    title: "Meetup",
    source_url: "https://ex.org/x",
    starts_at: "2030-01-01T10:00:00Z",
  }]);
  await assert.rejects(
    () => readText("csv", csv),
    (e) => e instanceof InputError && /"ID".*not event fields/.test(e.message),
  );
});

Deno.test("CSV rows with bad values are invalid with the schema's message; others pass", async () => {
  const csv = `${HEADER},latitude,is_free,timezone\n` +
    "a,Ok,https://ex.org/a,2030-01-01 10:00,52.5,true,Europe/Berlin\n" +
    "b,Bad lat,https://ex.org/b,2030-01-01T10:00:00Z,north,maybe,\n" +
    "c,Short row,https://ex.org/c\n";
  const records = await readText("csv", csv);
  assert.equal(records[0].kind, "valid");
  assert.equal(records[1].kind, "invalid");
  const messages = records[1].kind === "invalid" ? records[1].messages.join(" | ") : "";
  assert.match(messages, /latitude must be a number, not a string/);
  assert.match(messages, /is_free must be true or false, not a string/);
  assert.deepEqual([records[2].kind, records[2].location], ["invalid", "input:4"]);
});

Deno.test("JSON arrays and {events: [...]} stream item by item with index and line", async () => {
  const json =
    '[\n  {"external_id": "a", "title": "A ] [ \\"quoted\\"", "source_url": "https://ex.org/a", "starts_at": "2030-01-01T10:00:00Z"},\n  42,\n  {"broken": }\n]';
  const records = await readText("json", json, {}, 3);
  assert.deepEqual(records.map((r) => [r.kind, r.location]), [
    ["valid", "input:2 (index 0)"],
    ["invalid", "input:3 (index 1)"],
    ["invalid", "input:4 (index 2)"],
  ]);
  assert.equal(valid(records)[0].title, 'A ] [ "quoted"');
  const wrapped = await readText("json", '{"meta": {"x": [1]}, "events": [{"external_id": "b"}]}');
  assert.deepEqual(wrapped.map((r) => r.kind), ["invalid"]);
  assert.match(
    wrapped[0].kind === "invalid" ? wrapped[0].messages.join() : "",
    /title is required/,
  );
  await assert.rejects(() => readText("json", '{"items": []}'), /no "events" array/);
  await assert.rejects(() => readText("json", "[{}"), /ends before the events array is closed/);
});

Deno.test("NDJSON reads one event per line and names the line of each problem", async () => {
  const ndjson =
    '{"external_id":"a","title":"A","source_url":"https://ex.org/a","starts_at":"2030-01-01T10:00:00Z"}\n\nnot json\n';
  const records = await readText("ndjson", ndjson, { platform: "meetup" });
  assert.deepEqual(records.map((r) => [r.kind, r.location]), [["valid", "input:1"], [
    "invalid",
    "input:3",
  ]]);
  assert.equal(valid(records)[0].platform, "meetup");
});

Deno.test("the conference data converts with --map and every one of its events is valid or explained", async () => {
  // conference-data is not in the API's format: a contributor maps it; here as NDJSON lines.
  const source = JSON.parse(
    await Deno.readTextFile(`${DATA}conference-data/2026/javascript.json`),
  ) as Record<string, unknown>[];
  const lines = source.map((c) =>
    JSON.stringify({
      external_id: `${c.name}-${c.startDate}`,
      title: c.name,
      source_url: c.url,
      starts_at: `${c.startDate}T09:00:00Z`,
      ends_at: `${c.endDate ?? c.startDate}T18:00:00Z`,
      city: c.city,
      country: c.country,
      is_virtual: c.online,
    })
  );
  const path = await Deno.makeTempFile({ suffix: ".ndjson" });
  await Deno.writeTextFile(path, lines.join("\n"));
  const records = await readFile(path);
  assert.equal(records.length, source.length);
  const invalid = records.filter((r) => r.kind === "invalid");
  for (const r of invalid) assert.ok(r.kind === "invalid" && r.messages.length > 0);
  assert.ok(valid(records).length > source.length * 0.9);
});
