/**
 * Detection's normalising, keys and verdicts held to what they were: the lookup keys, the
 * fingerprint of the matched fields and the candidate bounds of every listing of the evaluation's
 * six lists (and of their perturbed listings) and of the duplicates benchmark's events, and the
 * matcher's verdict and score on every pair their keys bring together and every labelled pair
 * and hard negative. A change of any of them (a rewrite meant to be only faster) fails here; a
 * change meant to find other pairs raises DUPLICATE_RULES_VERSION and writes the golden again:
 *
 *   MATCH_GOLDEN=write deno test -A tests/duplicates/match-golden.test.ts
 *
 * The golden file holds one SHA-256 a section (with how many lines it hashed), not the outputs.
 * It was written by main's rules at 996bb7e (before the rewrite for speed); "edge listings" again
 * at rules version 4, whose lookup tables no longer read a word such as "constructor" as a
 * property of Object.prototype (the edge pairs' verdicts stayed as they were). To add a section
 * without trusting the code under test, write it with the reference rules in place
 * (`git checkout <reference> -- server/duplicates`, write, `git checkout HEAD -- server/duplicates`).
 */
import assert from "node:assert/strict";
import { EventInput, type EventRecord } from "../../shared/event-schema.ts";
import {
  type MatchFacts,
  matchFactsOf,
  type MatchSource,
} from "../../server/duplicates/match-facts.ts";
import {
  bandLatitude,
  candidateBounds,
  factsFingerprint,
  probeKeys,
  storedDays,
  storedKeys,
} from "../../server/duplicates/lookup-keys.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { duplicateSources, type SourceEvent } from "../../scripts/support/duplicate-sources.ts";
import { readLabels } from "../../scripts/support/duplicate-eval.ts";
import { keyPairs } from "../../scripts/support/duplicate-offline.ts";
import { PERTURBATIONS, perturbSources } from "../../scripts/support/duplicate-perturb.ts";
import {
  benchEvents,
  type BenchMix,
  relisting,
} from "../../scripts/support/duplicate-bench-events.ts";

const GOLDEN = new URL("./match-golden.json", import.meta.url);
// Enough of the benchmark's year that most listings find candidates (about 22 a day).
const BENCH_SIZES: Record<BenchMix, number> = { realistic: 8_000, heavy: 3_000 };

/** As detection reads a stored row: absent fields null, times as Dates. */
function storedRow(e: EventRecord | SourceEvent, id: string): MatchSource {
  const r = e as Record<string, unknown>;
  const orNull = <T>(v: T | undefined) => v ?? null;
  return {
    id,
    title: e.title,
    source_url: String(r.source_url ?? ""),
    starts_at: new Date(String(r.starts_at)),
    ends_at: r.ends_at ? new Date(String(r.ends_at)) : null,
    city: orNull(r.city as string | null | undefined),
    country: orNull(r.country as string | null | undefined),
    latitude: orNull(r.latitude as number | null | undefined),
    longitude: orNull(r.longitude as number | null | undefined),
    is_virtual: Boolean(r.is_virtual),
    is_hybrid: orNull(r.is_hybrid as boolean | null | undefined),
  };
}

function listingLine(f: MatchFacts): string {
  return [
    f.id,
    factsFingerprint(f),
    storedKeys(f).join(","),
    probeKeys(f).join(","),
    JSON.stringify(storedDays(f)),
    bandLatitude(f),
    JSON.stringify(candidateBounds(f)),
  ].join("\t");
}

function verdictLines(pairs: [MatchFacts, MatchFacts][], vectors: boolean): string[] {
  return pairs.map(([a, b]) => {
    const v = matchListings(a, b, vectors ? { vectorSimilarity: 0.95 } : {});
    return `${a.id}\t${b.id}\t${v.same}\t${v.score}\t${v.reason}`;
  });
}

function factsOfSources(sources: { events: SourceEvent[] }[], only?: Set<SourceEvent>) {
  return sources.flatMap((s) =>
    s.events.filter((e) => only === undefined || only.has(e)).map((e) => {
      const record = EventInput.parse(e);
      return matchFactsOf({ ...record, id: e.external_id });
    })
  );
}

// Titles, places and addresses at the edges of the normalisers: signs spelt out, numbers run
// into words, accents, acronyms, taglines, words that are names of Object's own properties, bad
// and odd addresses, countries with "and online".
const EDGE_TITLES = [
  "Constructor Conference",
  "Constructor Days 2027",
  "toString Summit",
  "C++ & Rust Meetup #42",
  "C++ and Rust Meetup # 42",
  "C plus plus & Rust #\t43",
  "PyCon2025",
  "PyCon 2025 (PyCon DE)",
  "RustConf2025 - Portland",
  "Café Conférence",
  "Testμ Conference",
  "München Rust Tage",
  "DevOpsDays Zürich 2025",
  "SCaLE 22x",
  "Southern California Linux Expo",
  "KCD Munich",
  "Kubernetes Community Days Munich",
  "The 13th Annual Rust Conf '25",
  "Conference 2026",
  "#",
  "2025",
  "",
  "ab2020x a2025_b x2025 y1999",
  "ReactConf",
  "React Conf",
  "reactconference",
  "EuroSTAR Software Testing",
  "AgileTD",
  "Agile Testing Days",
  "PyCon Latin America",
  "PyCon LatAm",
  "PyConZA",
  "PyCon South Africa",
  "PyCon New Zealand | Call for papers",
  "TestFlix – Global Software Testing Conference",
  "Line\nbreak conf",
  "ICSE: International Conference on Software Engineering",
  "Rust Nation UK",
  "v8 Summit v2",
];
const EDGE_PLACES: [string | null, string | null, number | null, number | null][] = [
  ["Berlin", "Germany", 52.52, 13.4],
  ["München", "DE", 48.14, 11.58],
  ["Austin, TX", "USA", 30.27, -97.74],
  ["Online", "Spain and Online", null, null],
  [null, "Illinois USA", null, null],
  ["New York City", "United States", 40.71, -74.01],
];
const EDGE_URLS = [
  "https://www.Example.org/a/../b/?utm_source=x&b=2&a=1#frag",
  "http://2025.pycon.de/",
  "https://www.meetup.com/rust-berlin/events/123/",
  "not an address",
  "https://example.org/%E2%82%AC/index.html",
  "https://example.org/%zz/2025",
  "https://example.org/?",
  "https://example.org?utm_source=a&ref=b",
];

function edgeListings(): MatchFacts[] {
  return EDGE_TITLES.flatMap((title, t) =>
    EDGE_PLACES.filter((_, p) => (t + p) % 2 === 0).map(([city, country, lat, lon], p) =>
      matchFactsOf({
        id: `edge-${t}-${p}`,
        title,
        source_url: EDGE_URLS[(t + p) % EDGE_URLS.length],
        starts_at: new Date(Date.UTC(2031, 4, 10 + (t % 3), 9)),
        ends_at: t % 4 === 0 ? null : new Date(Date.UTC(2031, 4, 11 + (t % 3), 17)),
        city,
        country,
        latitude: lat,
        longitude: lon,
        is_virtual: city === "Online",
        is_hybrid: city === "Online" ? false : null,
      })
    )
  );
}

/** The lines of each section, computed by the code under test. */
async function goldenSections(): Promise<Record<string, string[]>> {
  const sources = await duplicateSources();
  const events = sources.flatMap((s) => s.events);
  const labels = await readLabels(events);
  const facts = factsOfSources(sources);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const labelled = [...labels.positives, ...labels.hardNegatives.keys()].map((k) =>
    k.split("|").map((id) => byId.get(id)!) as [MatchFacts, MatchFacts]
  );
  const sections: Record<string, string[]> = {
    "eval listings": facts.map(listingLine),
    "eval stored rows": events.map((e) => listingLine(matchFactsOf(storedRow(e, e.external_id)))),
    "eval key pairs": verdictLines(keyPairs(facts), false),
    "eval labelled pairs": [
      ...verdictLines(labelled, false),
      ...verdictLines(labelled.map(([a, b]) => [b, a]), false),
      ...verdictLines(labelled, true),
    ],
  };
  const edges = edgeListings();
  sections["edge listings"] = edges.map(listingLine);
  sections["edge pairs"] = verdictLines(
    edges.flatMap((a) => edges.filter((b) => b !== a).map((b): [MatchFacts, MatchFacts] => [a, b])),
    false,
  );
  for (const how of PERTURBATIONS) {
    const changed = perturbSources(sources, { labels, how }).sources;
    const moved = new Set(changed.flatMap((s) => s.events).filter((e) => !events.includes(e)));
    const fresh = factsOfSources(changed, moved);
    const all = new Map(byId);
    for (const f of fresh) all.set(f.id, f);
    const ids = new Set(fresh.map((f) => f.id));
    sections[`perturbed ${how} listings`] = fresh.map(listingLine);
    sections[`perturbed ${how} pairs`] = verdictLines(
      keyPairs([...all.values()]).filter(([a, b]) => ids.has(a.id) || ids.has(b.id)),
      false,
    );
  }
  for (const mix of ["realistic", "heavy"] as BenchMix[]) {
    const own = benchEvents(0, BENCH_SIZES[mix], mix);
    const relisted = own.filter((_, i) => i % 10 === 3).map((e) => relisting(e, mix));
    const listings = [...own, ...relisted].map((e) => storedRow(e, e.external_id));
    const written = listings.map((row) => ({
      ...row,
      starts_at: (row.starts_at as Date).toISOString(),
      ends_at: row.ends_at === null ? null : (row.ends_at as Date).toISOString(),
    }));
    const benchFacts = listings.map(matchFactsOf);
    sections[`bench ${mix} listings`] = benchFacts.map(listingLine);
    sections[`bench ${mix} written`] = written.map((w) => listingLine(matchFactsOf(w)));
    sections[`bench ${mix} pairs`] = verdictLines(keyPairs(benchFacts), false);
  }
  return sections;
}

async function digest(lines: string[]): Promise<string> {
  const bytes = new TextEncoder().encode(lines.join("\n"));
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

type Golden = Record<string, { lines: number; sha256: string }>;

async function goldenOfCode(): Promise<Golden> {
  const golden: Golden = {};
  for (const [name, lines] of Object.entries(await goldenSections())) {
    golden[name] = { lines: lines.length, sha256: await digest(lines) };
  }
  return golden;
}

Deno.test("keys, fingerprints, bounds and verdicts are those of the golden file", async () => {
  const now = await goldenOfCode();
  if (Deno.env.get("MATCH_GOLDEN") === "write") {
    await Deno.writeTextFile(GOLDEN, JSON.stringify(now, null, 2) + "\n");
  }
  const golden = JSON.parse(await Deno.readTextFile(GOLDEN)) as Golden;
  for (const [name, expected] of Object.entries(golden)) {
    assert.deepEqual(now[name], expected, `section "${name}" changed`);
  }
  assert.deepEqual(Object.keys(now).sort(), Object.keys(golden).sort());
  // Each section exercises something: pairs that match, and pairs that do not.
  for (const [name, g] of Object.entries(golden)) assert.ok(g.lines > 0, `${name} is empty`);
});
