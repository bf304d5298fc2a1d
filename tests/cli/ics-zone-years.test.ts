/** The ICS reader converts zoned times correctly in every year, not only near the window. */
import assert from "node:assert/strict";
import { readText, valid } from "./support/read-file.ts";

function calendar(...events: [uid: string, tzid: string, start: string][]): string {
  const vevents = events.map(([uid, tzid, start]) =>
    [
      "BEGIN:VEVENT",
      `UID:${uid}`,
      "DTSTAMP:20260101T000000Z",
      `DTSTART;TZID=${tzid}:${start}`,
      `SUMMARY:${uid}`,
      "URL:https://example.org/e",
      "END:VEVENT",
    ].join("\r\n")
  );
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...vevents, "END:VCALENDAR", ""]
    .join("\r\n");
}

async function startsOf(text: string, options = {}): Promise<Record<string, unknown>> {
  const events = valid(await readText("ics", text, options, 64));
  return Object.fromEntries(events.map((e) => [e.external_id, e.starts_at]));
}

Deno.test("a single event a few years past the recurrence window gets its summer offset", async () => {
  // The window (2026 plus 365 days) ends long before 2030; CEST (+2) still applies in July 2030.
  const starts = await startsOf(
    calendar(
      ["summer-2030", "Europe/Berlin", "20300710T180000"],
      ["winter-2030", "Europe/Berlin", "20300110T180000"],
    ),
    { from: new Date("2026-01-01T00:00:00Z"), horizonDays: 365 },
  );
  assert.deepEqual(starts, {
    "summer-2030": "2030-07-10T16:00:00.000Z",
    "winter-2030": "2030-01-10T17:00:00.000Z",
  });
});

Deno.test("times far outside the years the zone definitions cover are still converted correctly", async () => {
  const starts = await startsOf(
    calendar(
      ["berlin-2060", "Europe/Berlin", "20600710T180000"],
      // New York kept summer time in 1960 (EDT, -4): before the definitions' first year, 1970.
      ["new-york-1960", "America/New_York", "19600710T180000"],
      ["new-york-2080", "America/New_York", "20800110T180000"],
    ),
  );
  assert.deepEqual(starts, {
    "berlin-2060": "2060-07-10T16:00:00.000Z",
    "new-york-1960": "1960-07-10T22:00:00.000Z",
    "new-york-2080": "2080-01-10T23:00:00.000Z",
  });
});

Deno.test("a yearly series read with a long horizon keeps the right offset in its last years", async () => {
  const text = calendar(["yearly", "Europe/Berlin", "20260706T180000"]).replace(
    "SUMMARY:yearly",
    "SUMMARY:yearly\r\nRRULE:FREQ=YEARLY;COUNT=30",
  );
  const starts = Object.values(
    await startsOf(text, { from: new Date("2026-01-01T00:00:00Z"), horizonDays: 36_500 }),
  );
  assert.equal(starts.length, 30);
  for (const start of starts) assert.match(String(start), /-07-06T16:00:00\.000Z$/);
});
