/**
 * Text search reads a query as words, never counting stop words: the listing shows events matching
 * every word first, then most of them (soonest first within each tier); the text ranking scores
 * every event holding a word by BM25F (tests/search/text-rank-exact.test.ts checks the score).
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { type EventFilters, filterConditions } from "../../server/db/event-filters.ts";
import { listEvents } from "../../server/db/event-reads.ts";
import { rankByText } from "../../server/search/ranked-events.ts";
import { textMatches } from "../../server/db/text-matches.ts";
import { unheldIdf, wordIdf } from "../../server/db/text-bm25.ts";
import { textTermsOf } from "../../server/db/text-terms.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
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

/** Events of the given [external id, title], one a day from tomorrow, by one writer. */
async function seedTitles(sql: Sql, writerName: string, titles: [string, string][]) {
  const writer = await insertWriterKey(sql, writerName);
  await upsertEvents(
    sql,
    writer,
    titles.map(([id, title], i) =>
      EventInput.parse(sampleEvent(i, {
        external_id: id,
        title,
        starts_at: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
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

      await t.step("events with every word rank first, a title above a description", async () => {
        const hits = await ranked(db.sql, "machine learning in production");
        assert.deepEqual(hits.slice(0, 2), ["ml-prod", "ml-prod-late"]);
        assert.ok(hits.includes("prod-only"), "an event with one word of three is on the page");
      });

      await t.step("a rare word counts more than a common one, with no recount", async () => {
        // "pagers" is in one description; "machine" in four events, titles among them.
        assert.equal((await ranked(db.sql, "pagers machine"))[0], "prod-only");
      });

      await t.step("two words where no event has both: events with either", async () => {
        assert.deepEqual((await ranked(db.sql, "database administration")).sort(), [
          "admin",
          "dba",
        ]);
      });

      await t.step("a word no event holds makes every match partial, for fusion", async () => {
        // "vacuum" is held by one event, "borrowck" by none: the match holds every word some
        // event holds, a share of the query's idf where "borrowck" counts as a word one event
        // would hold.
        const [match] = await textMatches(db.sql, "vacuum borrowck", {}, 10);
        assert.equal(match.everyWord, true);
        assert.equal(match.coverage, 1);
        const terms = await textTermsOf(db.sql, "vacuum");
        const vacuum = wordIdf(terms.words[0], terms);
        assert.ok(Math.abs(match.known - vacuum / (vacuum + unheldIdf(terms.events))) < 1e-9);
        assert.equal((await textMatches(db.sql, "vacuum", {}, 10))[0].known, 1);
      });

      await t.step("a single letter is a word like any other", async () => {
        const hits = await ranked(db.sql, "C programming");
        assert.equal(hits[0], "c-lang");
        assert.deepEqual(hits.slice(1).sort(), ["c-only", "programming"]);
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

      await t.step("filters apply to the ranking", async () => {
        const soon = new Date(Date.now() + 35 * 86_400_000);
        const hits = await ranked(db.sql, "machine learning in production", { to: soon });
        assert.equal(hits[0], "ml-prod");
        assert.deepEqual(hits.slice(1).sort(), ["learning-prod", "ml-only", "prod-only"]);
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

for (const kind of testBackends()) {
  Deno.test(`[${kind}] words match as people write them, joined, hyphenated or apart`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      await seedTitles(db.sql, "spellings", [
        ["hyphen", "Test-driven development in practice"],
        ["apart", "Test driven design for teams"],
        ["joined", "Testdriven katas"],
        ["slashed", "CI/CD pipelines that stay green"],
        ["spaced", "CI CD for beginners"],
        ["neither", "Driving tests for new drivers and test pilots"],
      ]);
      const top = async (q: string, n: number) => (await ranked(db.sql, q)).slice(0, n).sort();
      for (const q of ["test-driven", "test driven", "testdriven"]) {
        await t.step(`"${q}" finds every spelling first`, async () => {
          assert.deepEqual(await top(q, 3), ["apart", "hyphen", "joined"]);
        });
      }
      for (const q of ["ci/cd", "ci cd"]) {
        await t.step(`"${q}" finds the slashed and the spaced spelling`, async () => {
          assert.deepEqual(await top(q, 2), ["slashed", "spaced"]);
        });
      }
      await t.step("stop words never count", async () => {
        assert.deepEqual(await ranked(db.sql, "the and for"), []);
        assert.deepEqual(
          await ranked(db.sql, "the testdriven"),
          await ranked(db.sql, "testdriven"),
        );
      });
    } finally {
      await db.close();
    }
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] technologists' names: C#, C++ and F# apart, .NET, dotted names by their parts`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      await seedTitles(db.sql, "tech-names", [
        ["csharp", "C# Days"],
        ["cpp", "C++ Now"],
        ["fsharp", "F# eXchange"],
        ["c", "C programming from scratch"],
        ["dotnet", ".NET Conf"],
        ["node", "Node.js Interactive"],
        ["vue", "Vue.js Amsterdam"],
        ["socket", "Realtime apps with socket.io"],
      ]);
      const cases: [string, string[]][] = [
        ["c#", ["csharp"]],
        ["C# conference", ["csharp"]],
        ["csharp", ["csharp"]],
        ["c++", ["cpp"]],
        ["f#", ["fsharp"]],
        [".net", ["dotnet"]],
        ["dotnet", ["dotnet"]],
        ["node", ["node"]],
        ["nodejs", ["node"]],
        ["node.js", ["node"]],
        ["vue", ["vue"]],
        ["socket.io", ["socket"]],
      ];
      for (const [q, expected] of cases) {
        await t.step(`"${q}" finds ${expected.join(", ")} and nothing else`, async () => {
          assert.deepEqual(await ranked(db.sql, q), expected, "text ranking");
          assert.deepEqual(await listed(db.sql, q), expected, "?q= listing");
        });
      }
      await t.step(`"c" still finds the C language only, not C#, C++ or F#`, async () => {
        assert.deepEqual(await ranked(db.sql, "c"), ["c"]);
      });
    } finally {
      await db.close();
    }
  });

  // Words that weigh alike are scored as a conjunction first (server/db/text-matches.ts); that
  // page must not stand when an event holding one word strongly outscores the events holding both.
  Deno.test(`[${kind}] one word held strongly outranks both words held weakly`, async () => {
    const db = await openTestDatabase(kind);
    try {
      const filler = Array.from({ length: 40 }, (_, i) => `filler${i}word`).join(" ");
      const writer = await insertWriterKey(db.sql, "alike");
      const event = (id: string, title: string, description: string, day: number) =>
        EventInput.parse(sampleEvent(day, {
          external_id: id,
          title,
          description,
          starts_at: new Date(Date.now() + (day + 1) * 86_400_000).toISOString(),
        }));
      await upsertEvents(db.sql, writer, [
        ...Array.from(
          { length: 25 },
          (_, i) => event(`both-${i}`, "Evening", `${filler} tracing kernel`, i),
        ),
        ...Array.from({ length: 30 }, (_, i) => event(`other-${i}`, "Quiz night", "Pizza.", i)),
        event("tracing", "Tracing, tracing and more tracing", "Spans.", 40),
        event("kernel", "Kernel, kernel and more kernel", "Modules.", 41),
      ]);
      const page = await ranked(db.sql, "tracing kernel");
      assert.deepEqual(page.slice(0, 2).sort(), ["kernel", "tracing"]);
      assert.equal(page.length, 20);
    } finally {
      await db.close();
    }
  });
}
