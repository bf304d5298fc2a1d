/**
 * Text search reads a query as words: events matching every word first, then those matching most
 * of them, never events that share only a stop word or a single letter with the query. The same
 * for the list (soonest first within each tier) and the text ranking (best first within each).
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { type EventFilters, filterConditions } from "../../server/db/event-filters.ts";
import { listEvents } from "../../server/db/event-reads.ts";
import { rankByText } from "../../server/search/ranked-events.ts";
import { TEXT_RANK, textMatches } from "../../server/db/text-matches.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
import { refreshTextStats } from "../../server/db/text-stats.ts";
import { get, listAll } from "../ingest/support/http.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";

/** [external_id, title, description, days from now] */
type Fixture = [string, string, string, number];

const CATALOGUE: Fixture[] = [
  ["ml-prod", "Machine learning in production", "Serving models at scale.", 30],
  ["ml-prod-late", "Shipping machine learning", "From notebook to production.", 40],
  ["ml-only", "Machine learning reading group", "We read a paper a week.", 10],
  ["learning-prod", "Learning from production incidents", "Postmortems, told honestly.", 5],
  ["prod-only", "Production engineering night", "Deploys, rollbacks and pagers.", 1],
  ["dba", "Database administrator meetup", "Backups, replication, vacuum.", 20],
  ["admin", "Linux administration workshop", "Users, permissions and systemd.", 15],
  ["c-lang", "C programming from scratch", "Pointers and memory.", 25],
  ["c-only", "Plan C for the weekend", "Board games and pizza.", 2],
  ["programming", "Programming puzzles", "Solve puzzles in any language.", 12],
  ["hyphen", "Hands-on machine-learning lab", "Bring a laptop.", 50],
];

async function seedCatalogue(sql: Sql): Promise<void> {
  const writer = await insertWriterKey(sql, "text-search");
  await upsertEvents(
    sql,
    writer,
    CATALOGUE.map(([id, title, description, days]) =>
      EventInput.parse(sampleEvent(0, {
        external_id: id,
        title,
        description,
        starts_at: new Date(Date.now() + days * 86_400_000).toISOString(),
      }))
    ),
  );
}

const ranked = async (sql: Sql, q: string, filters: Omit<EventFilters, "q"> = {}) =>
  (await rankByText(sql, q, filters, 20)).map((h) => h.event.external_id);

const listed = async (sql: Sql, q: string) =>
  (await listEvents(sql, { q }, { limit: 20 })).events.map((e) => e.external_id);

for (const kind of testBackends()) {
  Deno.test(`[${kind}] text search matches every word first, then most of the words`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      await seedCatalogue(db.sql);

      await t.step(
        "three words: all three first, then two of them, then one fills the page",
        async () => {
          const hits = await ranked(db.sql, "machine learning in production");
          assert.deepEqual(hits.slice(0, 2).sort(), ["ml-prod", "ml-prod-late"]);
          assert.deepEqual(hits.slice(2, 5).sort(), ["hyphen", "learning-prod", "ml-only"]);
          assert.deepEqual(hits.slice(5), ["prod-only"], "one word of three comes last");
          const short = await rankByText(db.sql, "machine learning in production", {}, 5);
          assert.ok(!short.some((h) => h.event.external_id === "prod-only"), "only to fill a page");
        },
      );

      await t.step(
        "within a tier, a match in the title ranks above one in the description",
        async () => {
          const hits = await ranked(db.sql, "machine learning in production");
          assert.equal(hits[0], "ml-prod");
        },
      );

      await t.step(
        "a rare word counts more than a common one once statistics are read",
        async () => {
          // "pagers" is in one description; "machine" in four events, titles among them.
          assert.notEqual((await ranked(db.sql, "pagers machine"))[0], "prod-only");
          await refreshTextStats(db.sql);
          assert.equal((await ranked(db.sql, "pagers machine"))[0], "prod-only");
          await db.sql`DELETE FROM text_corpus_stats`;
          await db.sql`DELETE FROM text_term_stats`;
        },
      );

      await t.step("two words where no event has both: events with either", async () => {
        assert.deepEqual((await ranked(db.sql, "database administration")).sort(), [
          "admin",
          "dba",
        ]);
      });

      await t.step("scores fall from tier to tier", async () => {
        const hits = await rankByText(db.sql, "machine learning in production", {}, 20);
        const scores = hits.map((h) => h.score);
        assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
        assert.ok(scores[1] > scores[2], "the first fallback scores below every word");
        assert.ok(Math.floor(scores[0]) > Math.floor(scores.at(-1)!));
      });

      await t.step("a single letter counts only where every word matches", async () => {
        const hits = await ranked(db.sql, "C programming");
        assert.equal(hits[0], "c-lang");
        assert.deepEqual(hits.slice(1), ["programming"]);
        assert.ok(!hits.includes("c-only"));
      });

      await t.step("stop words match nothing, and do not widen a query", async () => {
        assert.deepEqual(await ranked(db.sql, "the of and in a"), []);
        assert.deepEqual(await listed(db.sql, "the of and in a"), []);
        assert.deepEqual(
          (await ranked(db.sql, "the production of the")).sort(),
          (await ranked(db.sql, "production")).sort(),
        );
      });

      await t.step("a hyphenated word matches its parts written apart", async () => {
        const hits = await ranked(db.sql, "machine-learning");
        assert.deepEqual(hits.sort(), ["hyphen", "ml-only", "ml-prod", "ml-prod-late"]);
      });

      await t.step("the list shows every word first, soonest first within each tier", async () => {
        assert.deepEqual(await listed(db.sql, "machine learning in production"), [
          "ml-prod",
          "ml-prod-late",
          "learning-prod",
          "ml-only",
          "hyphen",
        ]);
      });

      await t.step("filters apply to every tier", async () => {
        const soon = new Date(Date.now() + 35 * 86_400_000);
        const hits = await ranked(db.sql, "machine learning in production", { to: soon });
        assert.equal(hits[0], "ml-prod");
        assert.deepEqual(hits.slice(1, 3).sort(), ["learning-prod", "ml-only"]);
        assert.deepEqual(hits.slice(3), ["prod-only"]);
      });

      await t.step("a q filter keeps the events of every tier", async () => {
        const rows = await db.sql<{ external_id: string }[]>`
          SELECT e.external_id FROM events e
          WHERE ${filterConditions(db.sql, { q: "database administration" })}
          ORDER BY e.external_id`;
        assert.deepEqual(rows.map((r) => r.external_id), ["admin", "dba"]);
      });

      await t.step(
        "a word no event contains leaves the others to match, until one does",
        async () => {
          const query = "machine learning zyzzyva";
          const before = await ranked(db.sql, query);
          assert.deepEqual(before.slice(0, 4).sort(), [
            "hyphen",
            "ml-only",
            "ml-prod",
            "ml-prod-late",
          ]);
          assert.deepEqual(before.slice(4), ["learning-prod"], "one word fills the page");
          const writer = await insertWriterKey(db.sql, "zyzzyva");
          await upsertEvents(db.sql, writer, [
            EventInput.parse(sampleEvent(0, {
              external_id: "zyzzyva",
              title: "Machine learning for zyzzyva beetles",
              starts_at: new Date(Date.now() + 60 * 86_400_000).toISOString(),
            })),
          ]);
          assert.equal((await ranked(db.sql, query))[0], "zyzzyva");
          assert.deepEqual(await listed(db.sql, "zyzzyva beetles"), ["zyzzyva"]);
        },
      );
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] text ranking draws its candidates by relevance, not by date`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      // More "Kubernetes meetup" events than the tiers' soonest candidates (200), all sooner
      // than the one event holding a rare word of the query.
      const writer = await insertWriterKey(db.sql, "relevance");
      const common = Array.from({ length: 260 }, (_, i) =>
        EventInput.parse(sampleEvent(i, {
          external_id: `kube-${i}`,
          title: `Kubernetes meetup ${i}`,
          description: "Clusters and pods.",
          starts_at: new Date(Date.now() + (1 + i / 10) * 86_400_000).toISOString(),
        })));
      const rare = EventInput.parse(sampleEvent(999, {
        external_id: "ebpf-late",
        title: "eBPF tracing deep dive",
        description: "Programs in the kernel.",
        starts_at: new Date(Date.now() + 400 * 86_400_000).toISOString(),
      }));
      for (let i = 0; i < common.length; i += 100) {
        await upsertEvents(db.sql, writer, common.slice(i, i + 100));
      }
      await upsertEvents(db.sql, writer, [rare]);
      await refreshTextStats(db.sql);

      await t.step("a rare word's match outranks the soonest matches of common words", async () => {
        // No event has all three words; 260 have two of them, one has the rarest.
        assert.equal((await ranked(db.sql, "kubernetes meetup ebpf"))[0], "ebpf-late");
      });

      await t.step(
        "when fewer than half the words occur, events with any of them answer",
        async () => {
          const hits = await ranked(db.sql, "styling pages with kubernetes design tokens");
          assert.equal(hits.length, 20);
          assert.ok(hits.every((id) => id.startsWith("kube-")));
          // The listing keeps its documented tiers: half the words at least.
          assert.deepEqual(await listed(db.sql, "styling pages with kubernetes design tokens"), []);
        },
      );

      await t.step("no word occurring anywhere answers nothing", async () => {
        assert.deepEqual(await ranked(db.sql, "zyzzyva quokka"), []);
      });
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] text ranking stops early only when the rest cannot reach the page`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      const writer = await insertWriterKey(db.sql, "early-stop");
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
      const events = [
        // Rare words, in events later than all others: none is among the tiers' soonest.
        ...Array.from({ length: 30 }, (_, i) => ({
          title: `eBPF on Kubernetes ${i}`,
          description: "Observability.",
          days: 300 + i,
        })),
        ...Array.from({ length: 30 }, (_, i) => ({
          title: `Runtime notes ${i}`,
          description: "Mentions wasm once.",
          days: 300 + i,
        })),
        // Common words, soon.
        ...Array.from({ length: 260 }, (_, i) => ({
          title: `Kubernetes meetup ${i}`,
          description: "Clusters and pods.",
          days: 1 + i / 10,
        })),
        ...Array.from({ length: 45 }, (_, i) => ({
          title: `Quasar nebula pulsar ${i}`,
          description: "Telescopes.",
          days: 1 + i / 10,
        })),
      ].map(({ title, description, days }, n) =>
        EventInput.parse(sampleEvent(n, { title, description, starts_at: day(days) }))
      );
      for (let i = 0; i < events.length; i += 100) {
        await upsertEvents(db.sql, writer, events.slice(i, i + 100));
      }
      await refreshTextStats(db.sql);
      // A budget that takes the 30 events' words as rare and no other word.
      const fast = (q: string) => textMatches(db.sql, q, {}, 20, { ...TEXT_RANK, rareBudget: 40 });
      const exact = (q: string) =>
        textMatches(db.sql, q, {}, 20, { ...TEXT_RANK, rareBudget: 0, perTier: 10_000 });

      await t.step("the rare word's matches fill the page: the page of every match", async () => {
        const page = await fast("ebpf kubernetes");
        assert.equal(page.length, 20);
        assert.deepEqual(page, await exact("ebpf kubernetes"));
      });

      await t.step("common words outscoring the rare one: the tiers still count", async () => {
        // Three common words in the title outweigh a rare one mentioned in a description.
        const page = await fast("wasm quasar nebula pulsar");
        assert.deepEqual(page, await exact("wasm quasar nebula pulsar"));
        const [best] = await rankByText(db.sql, "wasm quasar nebula pulsar", {}, 1, {
          ...TEXT_RANK,
          rareBudget: 40,
        });
        assert.match(best.event.title, /^Quasar nebula pulsar/);
      });
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] ?q= pages through every tier exactly once`, async () => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 1000 });
      // 3 events with both words, 4 with only one, 2 with neither; start times interleave.
      const events = [
        ...[0, 1, 2].map((i) => ({ title: `Rust and Kubernetes ${i}`, days: 10 + i * 3 })),
        ...[0, 1].map((i) => ({ title: `Rust basics ${i}`, days: 2 + i * 3 })),
        ...[0, 1].map((i) => ({ title: `Kubernetes basics ${i}`, days: 1 + i * 7 })),
        ...[0, 1].map((i) => ({ title: `Gardening ${i}`, days: 4 + i })),
      ].map(({ title, days }, n) =>
        sampleEvent(n, {
          title,
          starts_at: new Date(Date.now() + days * 86_400_000).toISOString(),
        })
      );
      await postBatch(server.url, key.key, { events });
      const whole = await get(server.url, "/api/v1/events?q=rust%20kubernetes&limit=100");
      const titles = whole.body.data.map((e: { title: string }) => e.title);
      assert.deepEqual(titles.slice(0, 3), [0, 1, 2].map((i) => `Rust and Kubernetes ${i}`));
      assert.equal(titles.length, 7);
      const starts = whole.body.data.slice(3).map((e: { starts_at: string }) => e.starts_at);
      assert.deepEqual(starts, [...starts].sort(), "soonest first within the fallback tier");
      for (const limit of [1, 2, 3, 4, 7]) {
        const walked = await listAll(server.url, `q=rust%20kubernetes&limit=${limit}`);
        assert.deepEqual(walked.map((e) => e.title), titles, `limit ${limit}`);
      }
      const text = await get(server.url, "/api/v1/search?q=rust%20kubernetes&mode=text");
      assert.equal(text.status, 200);
      assert.deepEqual(
        text.body.data.slice(0, 3).map((h: { event: { title: string } }) => h.event.title).sort(),
        titles.slice(0, 3),
      );
      assert.equal(text.body.data.length, 7);
    } finally {
      await server.close();
    }
  });
}
