/**
 * The processor time of detection's two JavaScript steps on the benchmark's batches, without a
 * database: "facts and keys" (each written listing normalised, its fingerprint, stored and probe
 * keys, days and bounds) and "match" (each candidate normalised, the matcher on each pair). The
 * candidates are those the index would return at --size events (shared keys on days in reach,
 * within the bounds, another contributor or platform, the 50 sharing most a probe). With
 * --baseline (a checkout of another commit) its server/duplicates/ runs too, alternating with this
 * one's in the same process, so that both see the same load.
 *
 *   deno run -A scripts/support/duplicate-match-cpu.ts [--size 100000] [--batches 20]
 *     [--rounds 5] [--mix realistic|heavy] [--baseline /path/to/other/checkout]
 */
import { parseArgs } from "node:util";
import process from "node:process";
import type { EventRecord } from "../../shared/event-schema.ts";
import type { MatchRow } from "../../server/db/match-keys.ts";
import type { MatchFacts, MatchSource } from "../../server/duplicates/match-facts.ts";
import {
  benchEvents,
  type BenchMix,
  RELISTED_PER_HUNDRED,
  relisting,
} from "./duplicate-bench-events.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    batches: { type: "string", default: "20" },
    rounds: { type: "string", default: "5" },
    mix: { type: "string", default: "realistic" },
    baseline: { type: "string" },
  },
});
if (values.mix !== "realistic" && values.mix !== "heavy") {
  throw new Error(`Cannot run: --mix is realistic or heavy, not ${JSON.stringify(values.mix)}`);
}
const mix: BenchMix = values.mix;
const PER = 100;
const KEY_FANOUT = 64;
const CANDIDATES_PER_PROBE = 50;

/** The functions detection's JavaScript steps call, from one copy of server/duplicates/. */
interface Rules {
  name: string;
  matchFactsOf: (e: MatchSource) => MatchFacts;
  factsFingerprint: (f: MatchFacts) => number;
  storedKeys: (f: MatchFacts) => number[];
  probeKeys: (f: MatchFacts) => number[];
  storedDays: (f: MatchFacts) => { first: number; last: number };
  bandLatitude: (f: MatchFacts) => number | null;
  candidateBounds: (
    f: MatchFacts,
  ) => {
    from: Date;
    to: Date;
    latitudes: [number, number] | null;
    days: { first: number; last: number };
  };
  matchListings: (a: MatchFacts, b: MatchFacts, e?: { vectorSimilarity?: number }) => {
    same: boolean;
    score: number;
  };
}

async function rulesAt(root: URL, name: string): Promise<Rules> {
  const dir = new URL("server/duplicates/", root);
  const facts = await import(new URL("match-facts.ts", dir).href);
  const keys = await import(new URL("lookup-keys.ts", dir).href);
  const matcher = await import(new URL("matcher.ts", dir).href);
  return { name, ...facts, ...keys, ...matcher };
}

interface Written {
  id: string;
  contributor: number;
  platform: string;
  event: MatchSource;
}

function asWritten(e: EventRecord, contributor: number): Written {
  const r = e as Record<string, unknown>;
  return {
    id: `${contributor}:${e.platform}:${e.external_id}`,
    contributor,
    platform: e.platform,
    event: {
      id: "",
      title: e.title,
      source_url: String(r.source_url ?? ""),
      starts_at: String(r.starts_at),
      ends_at: r.ends_at ? String(r.ends_at) : null,
      city: (r.city as string | undefined) ?? null,
      country: (r.country as string | undefined) ?? null,
      latitude: (r.latitude as number | undefined) ?? null,
      longitude: (r.longitude as number | undefined) ?? null,
      is_virtual: Boolean(r.is_virtual),
      is_hybrid: (r.is_hybrid as boolean | undefined) ?? null,
    },
  };
}

/** Batches of the two contributors in turn, as scripts/bench-duplicates.ts pushes them. */
function batchesFrom(first: number, count: number): Written[][] {
  const out: Written[][] = [];
  let previous: EventRecord[] = [];
  for (let b = 0; b < count; b++) {
    const who = b % 2;
    const relisted = who === 1
      ? previous.slice(0, Math.round(PER * RELISTED_PER_HUNDRED[mix] / 100)).map((e) =>
        relisting(e, mix)
      )
      : [];
    const own = benchEvents(first + b * PER, PER - relisted.length, mix);
    if (who === 0) previous = own;
    out.push([...own, ...relisted].map((e) => asWritten(e, who)));
  }
  return out;
}

const asRow = (w: Written): MatchRow => ({
  ...w.event,
  id: w.id,
  starts_at: new Date(w.event.starts_at),
  ends_at: w.event.ends_at === null ? null : new Date(w.event.ends_at),
});

/** The candidates the index returns for each listing of `batch` (server/db/match-keys.ts). */
function candidatesOf(
  rules: Rules,
  stored: { index: Map<number, { w: Written; f: MatchFacts }[]> },
  batch: Written[],
): { probe: string; candidate: MatchRow }[] {
  const found: { probe: string; candidate: MatchRow }[] = [];
  for (const w of batch) {
    const f = rules.matchFactsOf({ ...w.event, id: w.id });
    const b = rules.candidateBounds(f);
    const shared = new Map<Written, { n: number; f: MatchFacts }>();
    for (const k of rules.probeKeys(f)) {
      const rows = (stored.index.get(k) ?? []).filter(({ f: c }) => {
        const d = rules.storedDays(c);
        const lat = rules.bandLatitude(c);
        return d.first <= b.days.last && d.last >= b.days.first &&
          (b.latitudes === null || lat === null ||
            (Math.floor(lat) >= Math.floor(b.latitudes[0]) &&
              Math.floor(lat) <= Math.floor(b.latitudes[1])));
      }).sort((x, y) => rules.storedDays(x.f).first - rules.storedDays(y.f).first)
        .slice(0, KEY_FANOUT);
      for (const r of rows) {
        const seen = shared.get(r.w);
        if (seen) seen.n++;
        else shared.set(r.w, { n: 1, f: r.f });
      }
    }
    const ranked = [...shared].filter(([c, { f: cf }]) =>
      c.id !== w.id && (c.contributor !== w.contributor || c.platform !== w.platform) &&
      cf.start <= b.to.getTime() && Math.max(cf.start, cf.end) >= b.from.getTime() &&
      (b.latitudes === null || cf.point === null || cf.online ||
        (cf.point.latitude >= b.latitudes[0] && cf.point.latitude <= b.latitudes[1]))
    ).sort(([x, a], [y, c]) =>
      c.n - a.n || Math.abs(a.f.start - f.start) - Math.abs(c.f.start - f.start) ||
      (x.id < y.id ? -1 : 1)
    ).slice(0, CANDIDATES_PER_PROBE);
    for (const [c] of ranked) found.push({ probe: w.id, candidate: asRow(c) });
  }
  return found;
}

/** Detection's "facts and keys" for one batch (detect-duplicates.ts, the same calls). */
function factsAndKeys(rules: Rules, batch: Written[]) {
  const written = batch.map((w) => ({
    platform: w.platform,
    facts: rules.matchFactsOf({ ...w.event, id: w.id }),
  })).filter(({ facts: f }) => Number.isFinite(f.start) && Number.isFinite(f.end))
    .map((w) => ({
      ...w,
      set: { fingerprint: rules.factsFingerprint(w.facts), keys: rules.storedKeys(w.facts) },
    }));
  const probes = written.map((w) => ({
    id: w.facts.id,
    keys: rules.probeKeys(w.facts),
    ...rules.candidateBounds(w.facts),
  }));
  const sets = written.map((w) => ({
    days: rules.storedDays(w.facts),
    latitude: rules.bandLatitude(w.facts),
  }));
  return { written, probes, sets };
}

/** Detection's "match" for one batch: each candidate normalised once, each pair judged once. */
function match(
  rules: Rules,
  written: MatchFacts[],
  found: { probe: string; candidate: MatchRow }[],
): number {
  const known = new Map(written.map((f) => [f.id, f]));
  for (const { candidate } of found) {
    if (!known.has(candidate.id)) known.set(candidate.id, rules.matchFactsOf(candidate));
  }
  const seen = new Set<string>();
  let same = 0;
  for (const { probe, candidate } of found) {
    const [a, b] = probe < candidate.id ? [probe, candidate.id] : [candidate.id, probe];
    if (seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    if (rules.matchListings(known.get(a)!, known.get(b)!, {}).same) same++;
  }
  return same;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const size = Number(values.size);
const batchCount = Number(values.batches);
const rounds = Number(values.rounds);
const here = await rulesAt(new URL("../../", import.meta.url), "this");
const all: Rules[] = [here];
if (values.baseline) {
  all.unshift(await rulesAt(new URL(`file://${values.baseline.replace(/\/?$/, "/")}`), "baseline"));
}
console.log(`loading ${size} events (${mix})...`);
const loaded = batchesFrom(0, size / PER).flat();
const index = new Map<number, { w: Written; f: MatchFacts }[]>();
for (const w of loaded) {
  const f = here.matchFactsOf({ ...w.event, id: w.id });
  for (const k of here.storedKeys(f)) {
    const held = index.get(k);
    if (held) held.push({ w, f });
    else index.set(k, [{ w, f }]);
  }
}
const timed = batchesFrom(size / PER, batchCount).map((batch) => ({
  batch,
  found: candidatesOf(here, { index }, batch),
}));
const pairs = timed.reduce((n, t) => n + t.found.length, 0) / timed.length;
console.log(`${timed.length} batches, ${pairs.toFixed(0)} candidate rows a batch`);
{
  const perBatch = timed.map((t) => new Set(t.found.map((f) => f.candidate.id)));
  const ids = new Set(perBatch.flatMap((s) => [...s]));
  const titles = new Set(timed.flatMap((t) => t.found.map((f) => f.candidate.title)));
  const rows = perBatch.reduce((n, s) => n + s.size, 0);
  console.log(
    `distinct candidates: ${rows} a batch summed, ${ids.size} over all, ${titles.size} titles`,
  );
}

const totals = new Map(all.map((r) => [r.name, { keys: [] as number[], match: [] as number[] }]));
const check = new Map<string, number>();
for (let round = -1; round < rounds; round++) {
  // Alternate which runs first; round -1 warms both up.
  const order = round % 2 === 0 ? all : [...all].reverse();
  for (const rules of order) {
    let keysMs = 0;
    let matchMs = 0;
    let same = 0;
    for (const { batch, found } of timed) {
      const t0 = cpuMs();
      const { written } = factsAndKeys(rules, batch);
      const t1 = cpuMs();
      same += match(rules, written.map((w) => w.facts), found);
      const t2 = cpuMs();
      keysMs += t1 - t0;
      matchMs += t2 - t1;
    }
    if (check.has(rules.name) && check.get(rules.name) !== same) throw new Error("verdicts moved");
    check.set(rules.name, same);
    if (round < 0) continue;
    totals.get(rules.name)!.keys.push(keysMs / timed.length);
    totals.get(rules.name)!.match.push(matchMs / timed.length);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const least = (xs: number[]) => Math.min(...xs);
for (const [name, t] of totals) {
  console.log(
    `${name}: facts and keys ${median(t.keys).toFixed(2)} ms CPU a batch (least ${
      least(t.keys).toFixed(2)
    }), match ${median(t.match).toFixed(2)} ms (least ${least(t.match).toFixed(2)}); ` +
      `median of ${rounds} rounds; ${check.get(name)} pairs judged the same`,
  );
}
if (new Set(check.values()).size > 1) throw new Error("the two versions judged pairs apart");
console.log(`load: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
