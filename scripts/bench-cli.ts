/**
 * Prints the CLI's speed figures: a generated 10,000-event ICS (time zones, recurring events),
 * a 100,000-row CSV, and a push of 10,000 events to a local server with a raised limit.
 * Targets: the ICS in under 2 s, CSV at 20 MB/s or more. Each figure is the median of BENCH_RUNS
 * runs (default 3): other work on the machine moves single runs by a third or more.
 * Each line ends with the load average: on a shared machine other work moves wall time a lot.
 * Run: deno run -A scripts/bench-cli.ts
 */
import { createApiKey, startTestServer } from "../dev-support/test-server.ts";
import { ensureBuilt } from "../dev-support/run-cli.ts";
import { readIcs } from "../cli/readers/ics.ts";
import { readCsv } from "../cli/readers/csv.ts";
import type { Reader } from "../cli/readers/record.ts";
import { EventInput } from "../shared/event-schema.ts";
import { percentile } from "./support/stats.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const WORK = `${ROOT}.cache/bench-cli`;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);

const median = (values: number[]) => percentile(values, 50);

/** Prints a figure with the one-minute load average it was taken at. */
function say(line: string): void {
  console.log(`${line} (load ${Deno.loadavg()[0].toFixed(1)})`);
}

/** The median of `RUNS` runs of `run`, by the number `key` picks. */
async function medianRun<T>(run: () => Promise<T>, key: (result: T) => number): Promise<T> {
  const results: T[] = [];
  for (let i = 0; i < RUNS; i++) results.push(await run());
  const middle = median(results.map(key));
  return results.find((r) => key(r) === middle)!;
}
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
    args: ["-f", "%e %M %U %S", "node", `${ROOT}packages/cli/dist/events.mjs`, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr).trim().split("\n");
  const [seconds, kb, user, system] = stderr.at(-1)!.split(" ").map(Number);
  return {
    code: output.code,
    seconds,
    /** CPU time (user + system): less moved than wall time by other work on the machine. */
    cpuSeconds: user + system,
    peakMb: kb / 1024,
    json: JSON.parse(new TextDecoder().decode(output.stdout)),
  };
}

/**
 * The reader alone (parse and map to events), in this process; with `schema`, also the time the
 * shared schema's check takes on each event as it streams past (events are not kept: holding
 * them all makes the garbage collector, not the check, dominate).
 */
async function readerOnly(
  reader: Reader,
  text: string,
  from: Date,
  schema = false,
): Promise<{ ms: number; events: number; schemaMs: number }> {
  async function* chunks() {
    for (let i = 0; i < text.length; i += 256 * 1024) yield text.slice(i, i + 256 * 1024);
  }
  const started = performance.now();
  let events = 0;
  let schemaMs = 0;
  const options = { sourceName: "bench", horizonDays: 365, from, fieldMap: new Map() };
  for await (const item of reader(chunks(), options)) {
    if (item.kind !== "event") continue;
    events++;
    if (!schema) continue;
    const t = performance.now();
    EventInput.safeParse(item.event);
    schemaMs += performance.now() - t;
  }
  return { ms: performance.now() - started - schemaMs, events, schemaMs };
}

/** The schema check's median cost per event over RUNS streamed passes, in microseconds. */
async function schemaMicros(reader: Reader, text: string, from: Date): Promise<number> {
  const passes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const pass = await readerOnly(reader, text, from, true);
    passes.push((pass.schemaMs * 1000) / pass.events);
  }
  return median(passes);
}

await ensureBuilt();
await Deno.mkdir(WORK, { recursive: true });

const ics = generateIcs();
await Deno.writeTextFile(`${WORK}/events.ics`, ics.text);
const icsParse = await medianRun(
  () => readerOnly(readIcs, ics.text, new Date("2030-01-01")),
  (r) => r.ms,
);
say(
  `ICS reader only (parse, expand, map; Deno): ${icsParse.events} events in ${
    (icsParse.ms / 1000).toFixed(2)
  } s; schema check alone ${
    (await schemaMicros(readIcs, ics.text, new Date("2030-01-01"))).toFixed(1)
  } µs/event`,
);
const icsRun = await medianRun(
  () => timed(["validate", `${WORK}/events.ics`, "--from", "2030-01-01", "--json"]),
  (r) => r.seconds,
);
say(
  `ICS: ${icsRun.json.valid} events (expected ${ics.expected}) from ${
    (ics.text.length / 1e6).toFixed(1)
  } MB, ` +
    `parsed and validated in ${icsRun.seconds.toFixed(2)} s wall (node startup included; ${
      icsRun.cpuSeconds.toFixed(2)
    } s CPU), ` +
    `reader loop ${(icsRun.json.duration_ms / 1000).toFixed(2)} s, peak RSS ${
      icsRun.peakMb.toFixed(0)
    } MB ` +
    `[target < 2 s]`,
);

const csv = generateCsv(100_000);
await Deno.writeTextFile(`${WORK}/events.csv`, csv);
const csvBytes = new TextEncoder().encode(csv);
const mb = csvBytes.byteLength / 1e6;
const rate = (ms: number) => (mb / (ms / 1000)).toFixed(1);
const csvParse = await medianRun(() => readerOnly(readCsv, csv, new Date()), (r) => r.ms);
const csvSchema = await schemaMicros(readCsv, csv, new Date());
say(
  `CSV reader only (grammar + typing; Deno, one thread): ${csvParse.events} rows in ${
    (csvParse.ms / 1000).toFixed(2)
  } s = ${rate(csvParse.ms)} MB/s; schema check alone ${csvSchema.toFixed(1)} µs/row = ${
    rate((csvSchema * csvParse.events) / 1000)
  } MB/s`,
);
// Worker threads (what the CLI uses for a file this size when the cores are idle), then one thread.
const CORES = navigator.hardwareConcurrency;
for (
  const [label, env] of [
    [`${CORES} worker threads`, { EVENTS_WORKERS: String(CORES) }],
    ["one thread (EVENTS_WORKERS=0)", { EVENTS_WORKERS: "0" }],
  ] as const
) {
  const run = await medianRun(
    () =>
      timed(["validate", `${WORK}/events.csv`, "--json"], {
        ...env,
        PATH: Deno.env.get("PATH") ?? "",
      }),
    (r) => r.seconds,
  );
  say(
    `CSV, ${label}: ${run.json.valid} rows, ${mb.toFixed(1)} MB in ${run.seconds.toFixed(2)} s ` +
      `wall (${run.cpuSeconds.toFixed(2)} s CPU, node start-up included) = ` +
      `${(mb / run.seconds).toFixed(1)} MB/s (loop alone ${rate(run.json.duration_ms)} MB/s), ` +
      `peak RSS ${run.peakMb.toFixed(0)} MB [target >= 20 MB/s]`,
  );
}

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
  // One push: later ones would only update what the first inserted.
  const push = await timed(["push", `${WORK}/push.json`, "--json"], {
    EVENTS_API_URL: server.url,
    EVENTS_API_KEY: key,
    PATH: Deno.env.get("PATH") ?? "",
  });
  const s = push.json;
  const overhead = s.duration_ms - s.request_ms;
  say(
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
