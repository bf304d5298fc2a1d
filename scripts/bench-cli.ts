/**
 * Prints the CLI's speed figures: a generated 10,000-event ICS (time zones, recurring events),
 * a 100,000-row CSV, and a push of 10,000 events to a local server with a raised limit.
 * Targets: the ICS in under 2 s, CSV at 20 MB/s or more. Run: deno run -A scripts/bench-cli.ts
 */
import { createApiKey, startTestServer } from "../tests/support/test-server.ts";
import { ensureBuilt } from "../tests/cli/support/run-cli.ts";
import { readIcs } from "../cli/readers/ics.ts";
import { readCsv } from "../cli/readers/csv.ts";
import type { Reader } from "../cli/readers/record.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const WORK = `${ROOT}.cache/bench-cli`;
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "W. Europe Standard Time",
  "Asia/Tokyo",
  "Pacific Standard Time",
];

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").slice(0, 15);
}

/** 10,000 events: 9,800 single ones in five zones and 200 weekly series of one occurrence per week. */
function generateIcs(): { text: string; expected: number } {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN"];
  const start = Date.UTC(2030, 0, 1, 9);
  for (let i = 0; i < 10_000; i++) {
    const zone = ZONES[i % ZONES.length];
    const begins = new Date(start + (i % 300) * 86_400_000 + (i % 9) * 3_600_000);
    lines.push(
      "BEGIN:VEVENT",
      `UID:bench-${i}@example.org`,
      `SUMMARY:Bench event ${i}: TypeScript meetup with a longer title`,
      `DESCRIPTION:Talks and networking\\, event number ${i}.`,
      `DTSTART;TZID=${zone.includes(" ") ? `"${zone}"` : zone}:${stamp(begins)}`,
      `DURATION:PT2H`,
      `URL:https://events.example.org/${i}`,
      "LOCATION:Community hall",
      "CATEGORIES:tech,meetup",
    );
    if (i % 50 === 0) lines.push("RRULE:FREQ=WEEKLY;COUNT=10");
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  // 200 series expand to 10 occurrences each.
  return { text: lines.join("\r\n"), expected: 9_800 + 200 * 10 };
}

function generateCsv(rows: number): string {
  const out = [
    "external_id,title,source_url,starts_at,timezone,city,country,tags,is_free,price_min,capacity",
  ];
  for (let i = 0; i < rows; i++) {
    out.push(
      `csv-${i},"Conference ${i}, with a comma",https://events.example.org/c/${i},2030-05-01 09:00,Europe/Berlin,Berlin,Germany,rust;web|cloud,no,${
        i % 300
      }.50,${i % 1000}`,
    );
  }
  return out.join("\r\n") + "\r\n";
}

async function timed(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%e %M", "node", `${ROOT}cli/dist/events.mjs`, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr).trim().split("\n");
  const [seconds, kb] = stderr.at(-1)!.split(" ").map(Number);
  return {
    code: output.code,
    seconds,
    peakMb: kb / 1024,
    json: JSON.parse(new TextDecoder().decode(output.stdout)),
  };
}

/** The reader alone (parse and map to events, no schema validation), in this process. */
async function readerOnly(
  reader: Reader,
  text: string,
  from: Date,
): Promise<{ ms: number; events: number }> {
  async function* chunks() {
    for (let i = 0; i < text.length; i += 256 * 1024) yield text.slice(i, i + 256 * 1024);
  }
  const started = performance.now();
  let events = 0;
  const options = { sourceName: "bench", horizonDays: 365, from, columnMap: new Map() };
  for await (const item of reader(chunks(), options)) if (item.kind === "event") events++;
  return { ms: performance.now() - started, events };
}

await ensureBuilt();
await Deno.mkdir(WORK, { recursive: true });

const ics = generateIcs();
await Deno.writeTextFile(`${WORK}/events.ics`, ics.text);
const icsParse = await readerOnly(readIcs, ics.text, new Date("2030-01-01"));
console.log(
  `ICS reader only (parse, expand, map; Deno): ${icsParse.events} events in ${
    (icsParse.ms / 1000).toFixed(2)
  } s`,
);
const icsRun = await timed(["validate", `${WORK}/events.ics`, "--from", "2030-01-01", "--json"]);
console.log(
  `ICS: ${icsRun.json.valid} events (expected ${ics.expected}) from ${
    (ics.text.length / 1e6).toFixed(1)
  } MB, ` +
    `parsed and validated in ${icsRun.seconds.toFixed(2)} s wall (node startup included), ` +
    `reader loop ${(icsRun.json.duration_ms / 1000).toFixed(2)} s, peak RSS ${
      icsRun.peakMb.toFixed(0)
    } MB ` +
    `[target < 2 s]`,
);

const csv = generateCsv(100_000);
await Deno.writeTextFile(`${WORK}/events.csv`, csv);
const mb = new TextEncoder().encode(csv).byteLength / 1e6;
const csvParse = await readerOnly(readCsv, csv, new Date());
console.log(
  `CSV reader only (csv-parse + typing; Deno): ${csvParse.events} rows in ${
    (csvParse.ms / 1000).toFixed(2)
  } s = ` +
    `${(mb / (csvParse.ms / 1000)).toFixed(1)} MB/s`,
);
const csvRun = await timed(["validate", `${WORK}/events.csv`, "--json"]);
console.log(
  `CSV: ${csvRun.json.valid} rows, ${mb.toFixed(1)} MB in ${csvRun.seconds.toFixed(2)} s wall = ` +
    `${(mb / csvRun.seconds).toFixed(1)} MB/s (reader + schema validation; loop alone ` +
    `${(mb / (csvRun.json.duration_ms / 1000)).toFixed(1)} MB/s), peak RSS ${
      csvRun.peakMb.toFixed(0)
    } MB ` +
    `[target >= 20 MB/s]`,
);

const server = await startTestServer("pglite", { defaultRateLimitPerMinute: 100_000 });
try {
  const { key } = await createApiKey(server, { rate_limit_per_minute: 100_000 });
  const events = Array.from({ length: 10_000 }, (_, i) => ({
    external_id: `push-${i}`,
    source_url: `https://events.example.org/p/${i}`,
    title: `Pushed event ${i}`,
    starts_at: "2030-06-01T18:00:00Z",
    city: "Berlin",
    tags: ["bench"],
  }));
  await Deno.writeTextFile(`${WORK}/push.json`, JSON.stringify(events));
  const push = await timed(["push", `${WORK}/push.json`, "--json"], {
    EVENTS_API_URL: server.url,
    EVENTS_API_KEY: key,
    PATH: Deno.env.get("PATH") ?? "",
  });
  const s = push.json;
  const overhead = s.duration_ms - s.request_ms;
  console.log(
    `Push: ${s.inserted} inserted in ${s.batches} batches, ${
      (s.duration_ms / 1000).toFixed(2)
    } s total; ` +
      `time in requests (server + loopback) ${(s.request_ms / 1000).toFixed(2)} s, CLI overhead ` +
      `${(overhead / 1000).toFixed(2)} s (${((overhead / s.duration_ms) * 100).toFixed(1)}%), ` +
      `waited ${s.waited_ms} ms, retries ${s.retries}, exit ${push.code}, peak RSS ${
        push.peakMb.toFixed(0)
      } MB`,
  );
} finally {
  await server.close();
}
