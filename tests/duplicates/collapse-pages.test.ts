/**
 * Collapse decides on the page, not in the search: the ?q= listing finds a tier's matches as
 * with collapse=false and drops the hidden ones from the events it fetches, asking for more when
 * some were; text ranking asks which of its best events are hidden only when its page would end
 * the search. Here the soonest and the best matches are all hidden members, behind canonical
 * listings that come later: every page still fills, the cursor neither skips nor repeats an
 * event, and a member holding a word its canonical listing lacks (in its description) shows.
 * The listing's first fetch has room for as many hidden events as the statistics' share of them.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { type ListCursor, listEvents } from "../../server/db/event-reads.ts";
import type { EventFilters } from "../../server/db/event-filters.ts";
import { estimatedHiddenShare } from "../../server/db/filter-estimate.ts";
import { textMatches } from "../../server/db/text-matches.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";

const HOUR = 3_600_000;
/** Hidden members, each before its canonical listing in start order and in the ranking. */
const MEMBERS = 60;
/** Events in no group, between the members and the canonical listings. */
const SINGLES = 10;
/** Events without the word, so that it is rare enough for the ranking to end early. */
const OTHERS = 1_000;

/**
 * Member `m-i` (the word twice in its title: ranked above the rest) starts at hour i, events in
 * no group `s-j` at hour 70 + j, canonical listings `c-i` at hour 100 + i. Member `m-7` alone
 * has "quimvex", in its description. Then events without the word.
 */
function events(start: number) {
  const at = (hour: number) => new Date(start + hour * HOUR).toISOString();
  return [
    ...Array.from({ length: MEMBERS }, (_, i) => ({
      external_id: `m-${i}`,
      title: `Zorblat zorblat night ${i}`,
      starts_at: at(i),
      ...(i === 7 ? { description: "Bring your quimvex along." } : {}),
    })),
    ...Array.from({ length: SINGLES }, (_, j) => ({
      external_id: `s-${j}`,
      title: `Zorblat evening ${j}`,
      starts_at: at(70 + j),
    })),
    ...Array.from({ length: MEMBERS }, (_, i) => ({
      external_id: `c-${i}`,
      title: `Zorblat night ${i}`,
      starts_at: at(100 + i),
    })),
    ...Array.from({ length: OTHERS }, (_, k) => ({
      external_id: `o-${k}`,
      title: `Lunch gathering ${k}`,
      // Longer than the listings with the word: those score above the postings' bound (their
      // impact is taken at a longer text), so the ranking can end before reading every posting.
      description: "Sandwiches, salads, soup, coffee and fruit for everyone working nearby.",
      starts_at: at(200 + k),
    })),
  ];
}

/** The events stored and grouped (m-i behind c-i); their ids by external id. */
async function seeded(sql: Sql): Promise<Map<string, string>> {
  const writer = await insertWriterKey(sql, "collapse-pages");
  const start = Date.now() + 24 * HOUR;
  const all = events(start).map((e, n) => EventInput.parse(sampleEvent(n, e)));
  for (let first = 0; first < all.length; first += 300) {
    await upsertEvents(sql, writer, all.slice(first, first + 300));
  }
  const rows = await sql<{ id: string; external_id: string }[]>`
    SELECT id, external_id FROM events`;
  const ids = new Map(rows.map((r) => [r.external_id, r.id]));
  const groups = Array.from(
    { length: MEMBERS },
    (_, i) => [ids.get(`m-${i}`)!, ids.get(`c-${i}`)!],
  );
  await sql`
    INSERT INTO event_group_members (event_id, group_id, canonical)
    SELECT m, c, false FROM unnest(${groups.map(([m]) => m)}::uuid[], ${
    groups.map(([, c]) => c)
  }::uuid[]) AS g (m, c)
    UNION ALL
    SELECT c, c, true FROM unnest(${groups.map(([, c]) => c)}::uuid[]) AS g (c)`;
  await sql`ANALYZE`;
  return ids;
}

/** Every page of a listing, limit `limit`, following the cursor: external ids in order. */
async function everyPage(sql: Sql, filters: EventFilters, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after: ListCursor | undefined;
  do {
    const page = await listEvents(sql, filters, { limit, after });
    pages.push(page.events.map((e) => e.external_id));
    after = page.next ?? undefined;
  } while (after && pages.length < 100);
  return pages;
}

const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

for (const kind of testBackends()) {
  Deno.test(`[${kind}] hidden members first in start order and in the ranking: pages still fill`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      const ids = await seeded(db.sql);
      const externalOf = new Map([...ids].map(([external, id]) => [id, external]));
      // m-7 holds "quimvex", which its canonical listing lacks: it shows.
      const shown = ["m-7", ...range("s", SINGLES), ...range("c", MEMBERS)];

      await t.step("the ?q= listing pages through every shown match once, in order", async () => {
        const everyOne = (await everyPage(db.sql, { q: "zorblat", collapse: false }, 200)).flat();
        assert.deepEqual(everyOne.slice(0, 3), ["m-0", "m-1", "m-2"], "members come first");
        for (const limit of [20, 7]) {
          const pages = await everyPage(db.sql, { q: "zorblat" }, limit);
          assert.deepEqual(pages.flat(), shown.filter((e) => e !== "m-7"), `pages of ${limit}`);
          assert.ok(pages.slice(0, -1).every((p) => p.length === limit), `full pages of ${limit}`);
        }
      });

      await t.step(
        "the listing's first fetch has room for the hidden share the statistics count",
        async () => {
          // 60 hidden members among 1,130 events, as ANALYZE counted them: room for 4 of 21.
          const share = await estimatedHiddenShare(db.sql);
          assert.ok(
            Math.abs(share - MEMBERS / (2 * MEMBERS + SINGLES + OTHERS)) < 0.01,
            `${share}`,
          );
        },
      );

      await t.step("a member found by a word only its description holds shows", async () => {
        const listed = await listEvents(db.sql, { q: "quimvex" }, { limit: 20 });
        assert.deepEqual(listed.events.map((e) => e.external_id), ["m-7"]);
        const ranked = await textMatches(db.sql, "quimvex", {}, 20);
        assert.deepEqual(ranked.map((m) => externalOf.get(m.id)), ["m-7"]);
        const both = await textMatches(db.sql, "zorblat quimvex", {}, 20);
        assert.equal(externalOf.get(both[0].id), "m-7");
      });

      await t.step("the text page is the best events that show, however it reads", async () => {
        const all = await textMatches(db.sql, "zorblat", { collapse: false }, 1_000);
        assert.equal(externalOf.get(all[0].id)?.startsWith("m-"), true, "members rank first");
        const best = all.map((m) => externalOf.get(m.id)!).filter((e) => !e.startsWith("m-"));
        for (const firstRead of [undefined, 2, 8]) {
          for (const limit of [5, 20]) {
            const page = await textMatches(db.sql, "zorblat", {}, limit, { firstRead });
            assert.deepEqual(
              page.map((m) => externalOf.get(m.id)),
              best.slice(0, limit),
              `first read ${firstRead}, limit ${limit}`,
            );
          }
        }
      });
    } finally {
      await db.close();
    }
  });
}
