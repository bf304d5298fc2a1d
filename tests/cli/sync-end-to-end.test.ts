/**
 * `events push --sync` against the real server: a nightly export keeps the service in step, within
 * its own scope (platform, --calendar), never past events, never more than half without --force;
 * cancelled ICS events are deleted.
 */
import assert from "node:assert/strict";
import { createApiKey, startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { testBackends } from "../../dev-support/databases.ts";
import { runCli } from "../../dev-support/run-cli.ts";

const OPTIONS = { sanitizeResources: false, sanitizeOps: false };

async function writeTemp(name: string, text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "events-cli-sync-" });
  await Deno.writeTextFile(`${dir}/${name}`, text);
  return `${dir}/${name}`;
}

/** The contributor's stored external_ids (of one platform), through GET /api/v1/me/events. */
async function storedIds(server: TestServer, key: string, platform: string): Promise<string[]> {
  const res = await fetch(`${server.url}/api/v1/me/events?platform=${platform}&limit=1000`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data.map((e: { external_id: string }) => e.external_id).sort();
}

function csv(ids: string[], start = "2031-03-01T18:00:00Z"): string {
  return "external_id,title,source_url,starts_at\n" +
    ids.map((id) => `${id},Event ${id},https://ex.org/${id},${start}`).join("\n") + "\n";
}

for (const kind of testBackends()) {
  Deno.test(
    `[${kind}] a nightly CSV export with --sync: dry run, removal, the half guard, --force`,
    OPTIONS,
    async () => {
      const server = await startTestServer(kind);
      try {
        const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
        const env = { EVENTS_API_URL: server.url, EVENTS_API_KEY: key };
        const push = async (text: string, ...args: string[]) =>
          await runCli(["push", await writeTemp("export.csv", text), "--sync", "--json", ...args], {
            env,
          });
        // A past event and an event of another platform are outside what a sync of this feed
        // may remove.
        const past = await runCli([
          "push",
          await writeTemp("past.csv", csv(["past"], "2020-01-01T10:00:00Z")),
          "--json",
        ], { env });
        assert.equal(past.code, 0, past.stdout);
        const meetup = await runCli([
          "push",
          await writeTemp("m.csv", csv(["m1"])),
          "--platform",
          "meetup",
          "--json",
        ], { env });
        assert.equal(meetup.code, 0, meetup.stdout);

        const first = await push(csv(["a", "b", "c", "d", "e", "f"]));
        assert.equal(first.code, 0, first.stdout);
        assert.deepEqual(first.json().sync.stale, 0);

        const dry = await push(csv(["a", "b", "c", "d"]), "--dry-run");
        assert.equal(dry.code, 0, dry.stdout);
        assert.deepEqual(dry.json().sync.would_delete, ["e", "f"]);
        assert.deepEqual(await storedIds(server, key, "other"), [
          "a",
          "b",
          "c",
          "d",
          "e",
          "f",
          "past",
        ]);

        const sync = await push(csv(["a", "b", "c", "d"]));
        assert.equal(sync.code, 0, sync.stdout);
        assert.deepEqual([sync.json().sync.stored, sync.json().sync.deleted], [6, 2]);
        assert.deepEqual(await storedIds(server, key, "other"), ["a", "b", "c", "d", "past"]);
        assert.deepEqual(await storedIds(server, key, "meetup"), ["m1"]);

        // A truncated export would remove 3 of 4: refused, nothing removed.
        const truncated = await push(csv(["a"]));
        assert.equal(truncated.code, 2, truncated.stdout);
        assert.match(truncated.json().error, /would remove 3 of the 4 .* --force/);
        assert.deepEqual(await storedIds(server, key, "other"), ["a", "b", "c", "d", "past"]);

        // A row that is invalid tonight keeps its stored event.
        const broken = csv(["a", "b"]) + "c,Event c,https://ex.org/c,2031-02-30T10:00:00Z\n";
        const kept = await push(broken, "--force");
        assert.equal(kept.code, 1, kept.stdout);
        assert.deepEqual(kept.json().sync.would_delete, ["d"]);
        assert.deepEqual(await storedIds(server, key, "other"), ["a", "b", "c", "past"]);

        const forced = await push(csv(["a"]), "--force");
        assert.equal(forced.code, 0, forced.stdout);
        assert.deepEqual(await storedIds(server, key, "other"), ["a", "past"]);
      } finally {
        await server.close();
      }
    },
  );
}

function calendar(name: string, events: string[][]): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${name}//EN`,
    ...events.flatMap((lines) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"]),
    "END:VCALENDAR",
  ].join("\r\n");
}

function vevent(uid: string, start: string, ...extra: string[]): string[] {
  return [
    `UID:${uid}`,
    `SUMMARY:${uid}`,
    `DTSTART:${start}`,
    "DURATION:PT1H",
    `URL:https://ex.org/${uid}`,
    ...extra,
  ];
}

Deno.test(
  "two calendars of one contributor: --sync removes only from the named one, and STATUS:CANCELLED deletes",
  OPTIONS,
  async () => {
    const server = await startTestServer(testBackends()[0]);
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
      const env = { EVENTS_API_URL: server.url, EVENTS_API_KEY: key };
      const push = async (name: string, text: string, ...args: string[]) =>
        await runCli([
          "push",
          await writeTemp(`${name}.ics`, text),
          "--calendar",
          name,
          "--from",
          "2031-01-01",
          "--json",
          ...args,
        ], { env });
      const weekly = vevent("weekly", "20310106T180000Z", "RRULE:FREQ=WEEKLY;COUNT=4");
      const berlin = [
        vevent("talk", "20310110T180000Z"),
        vevent("party", "20310111T200000Z"),
        weekly,
      ];
      assert.equal((await push("berlin", calendar("berlin", berlin))).code, 0);
      assert.equal(
        (await push("hamburg", calendar("hamburg", [vevent("hh", "20310112T180000Z")]))).code,
        0,
      );
      assert.equal((await storedIds(server, key, "ics_feed")).length, 7);

      const unnamed = await runCli([
        "push",
        await writeTemp("x.ics", calendar("x", berlin)),
        "--sync",
      ], {
        env,
      });
      assert.equal(unnamed.code, 2);
      assert.match(unnamed.stderr, /--sync with a calendar without naming it: add --calendar NAME/);

      // Berlin drops the party and cancels one week of the series.
      const cancelledWeek = [
        "UID:weekly",
        "RECURRENCE-ID:20310113T180000Z",
        "DTSTART:20310113T180000Z",
        "DURATION:PT1H",
        "SUMMARY:weekly",
        "STATUS:CANCELLED",
      ];
      const synced = await push(
        "berlin",
        calendar("berlin", [vevent("talk", "20310110T180000Z"), weekly, cancelledWeek]),
        "--sync",
      );
      assert.equal(synced.code, 0, synced.stdout);
      assert.deepEqual(await storedIds(server, key, "ics_feed"), [
        "berlin/talk",
        "berlin/weekly#20310106T180000Z",
        "berlin/weekly#20310120T180000Z",
        "berlin/weekly#20310127T180000Z",
        "hamburg/hh",
      ]);
      assert.deepEqual([synced.json().sync.deleted, synced.json().sync.cancelled_deleted], [1, 1]);

      // A whole series cancelled: every stored occurrence of it goes, even without --sync.
      const seriesCancelled = await push(
        "berlin",
        calendar("berlin", [vevent("talk", "20310110T180000Z"), [...weekly, "STATUS:CANCELLED"]]),
      );
      assert.equal(seriesCancelled.code, 0, seriesCancelled.stdout);
      assert.deepEqual(await storedIds(server, key, "ics_feed"), ["berlin/talk", "hamburg/hh"]);
    } finally {
      await server.close();
    }
  },
);
