/**
 * Events for the duplicates benchmark, in two mixes:
 *
 * - realistic: varied titles (meetup series numbered, conferences with names of their own,
 *   workshops), forty cities on four continents, and a few true duplicates: a second contributor
 *   re-lists about one event in fourteen of the first one's in its own words (another title form,
 *   an hour later or date-only, its own address);
 * - heavy: the template titles of realistic-events.ts ("rust meetup Berlin #12": a few thousand
 *   same-week titles sharing words, so most listings find fifty candidates) with one event in ten
 *   re-listed, the worst case the lookup keys meet.
 */
import { EventBatch, type EventRecord } from "../../shared/event-schema.ts";
import { realisticEvents } from "./realistic-events.ts";

export type BenchMix = "realistic" | "heavy";

const CITIES: [string, string, number, number][] = [
  ["Berlin", "Germany", 52.52, 13.4],
  ["Munich", "Germany", 48.14, 11.58],
  ["Hamburg", "Germany", 53.55, 9.99],
  ["London", "United Kingdom", 51.51, -0.13],
  ["Manchester", "United Kingdom", 53.48, -2.24],
  ["Paris", "France", 48.86, 2.35],
  ["Lyon", "France", 45.76, 4.84],
  ["Nantes", "France", 47.22, -1.55],
  ["Amsterdam", "Netherlands", 52.37, 4.9],
  ["Brussels", "Belgium", 50.85, 4.35],
  ["Madrid", "Spain", 40.42, -3.7],
  ["Barcelona", "Spain", 41.39, 2.17],
  ["Lisbon", "Portugal", 38.72, -9.14],
  ["Milan", "Italy", 45.46, 9.19],
  ["Rome", "Italy", 41.9, 12.5],
  ["Zurich", "Switzerland", 47.37, 8.54],
  ["Vienna", "Austria", 48.21, 16.37],
  ["Prague", "Czechia", 50.08, 14.44],
  ["Warsaw", "Poland", 52.23, 21.01],
  ["Stockholm", "Sweden", 59.33, 18.07],
  ["Copenhagen", "Denmark", 55.68, 12.57],
  ["Oslo", "Norway", 59.91, 10.75],
  ["Helsinki", "Finland", 60.17, 24.94],
  ["Dublin", "Ireland", 53.35, -6.26],
  ["New York", "United States", 40.71, -74.01],
  ["San Francisco", "United States", 37.77, -122.42],
  ["Seattle", "United States", 47.61, -122.33],
  ["Austin", "United States", 30.27, -97.74],
  ["Chicago", "United States", 41.88, -87.63],
  ["Boston", "United States", 42.36, -71.06],
  ["Toronto", "Canada", 43.65, -79.38],
  ["Montreal", "Canada", 45.5, -73.57],
  ["Mexico City", "Mexico", 19.43, -99.13],
  ["Sao Paulo", "Brazil", -23.55, -46.63],
  ["Buenos Aires", "Argentina", -34.6, -58.38],
  ["Tokyo", "Japan", 35.68, 139.69],
  ["Seoul", "South Korea", 37.57, 126.98],
  ["Singapore", "Singapore", 1.35, 103.82],
  ["Bangalore", "India", 12.97, 77.59],
  ["Sydney", "Australia", -33.87, 151.21],
];
const TOPICS = [
  "Rust",
  "TypeScript",
  "Postgres",
  "Kubernetes",
  "Machine Learning",
  "Security",
  "DevOps",
  "Web Performance",
  "Accessibility",
  "Data Engineering",
  "LLM",
  "Observability",
  "WebAssembly",
  "Python",
  "Go",
  "Cloud Native",
  "Design Systems",
  "Testing",
  "Mobile",
  "Open Source",
  "Java",
  "Kotlin",
  "Elixir",
  "Haskell",
  "React",
  "Vue",
  "Svelte",
  "GraphQL",
  "Serverless",
  "SRE",
  "Platform Engineering",
  "MLOps",
  "Data Science",
  "Blockchain",
  "Game Development",
  "Embedded",
  "Linux",
  "PHP",
  "Ruby",
  "Scala",
];
const SYLLABLES = [
  "ka",
  "lo",
  "ve",
  "ri",
  "tan",
  "mo",
  "ser",
  "qui",
  "da",
  "nor",
  "zel",
  "fi",
  "bra",
  "un",
  "tek",
  "sol",
  "mar",
  "vi",
  "ox",
  "pal",
];
const NOUNS = [
  "Summit",
  "Conf",
  "Days",
  "Camp",
  "Forum",
  "Festival",
  "Symposium",
  "Expo",
  "World",
  "Live",
];
const WORKSHOPS = ["Hands-on", "Intro to", "Advanced", "Deep dive:", "Masterclass:", "Bootcamp:"];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function brand(r: () => number): string {
  const n = 2 + Math.floor(r() * 2);
  const word = Array.from({ length: n }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)])
    .join("");
  return word[0].toUpperCase() + word.slice(1);
}

/** A varied title, city and address for event number `n`. */
function varied(n: number): { title: string; city: (typeof CITIES)[number]; url: string } {
  const r = rng(n * 7919 + 17);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const city = pick(CITIES);
  const topic = pick(TOPICS);
  const kind = r();
  if (kind < 0.5) {
    // A meetup series: its city and topic, numbered.
    const series = pick([
      `${topic} ${city[0]}`,
      `${city[0]} ${topic} Meetup`,
      `${topic} User Group ${city[0]}`,
    ]);
    return {
      title: `${series} #${1 + (n % 97)}`,
      city,
      url: `https://www.meetup.com/${n % 5000}/events/${n}/`,
    };
  }
  if (kind < 0.8) {
    const name = pick([
      `${brand(r)} ${pick(NOUNS)}`,
      `${topic} ${pick(NOUNS)} ${city[0]}`,
      `${brand(r)} ${topic} ${pick(NOUNS)}`,
    ]);
    return { title: `${name} 2027`, city, url: `https://conf${n}.example.org/` };
  }
  return {
    title: `${pick(WORKSHOPS)} ${topic} ${
      pick([
        "for beginners",
        "in production",
        "at scale",
        "patterns",
        "internals",
        "security",
        "testing",
      ])
    }`,
    city,
    url: `https://tickets.example.com/e/${n}`,
  };
}

function withRecord(n: number, e: Record<string, unknown>, mix: BenchMix) {
  if (mix === "heavy") return e;
  const v = varied(n);
  return {
    ...e,
    title: v.title,
    source_url: v.url,
    city: v.city[0],
    country: v.city[1],
    latitude: v.city[2],
    longitude: v.city[3],
    tags: ["technology"],
  };
}

/** `count` events of the mix, with distinct external ids from `first`. */
export function benchEvents(first: number, count: number, mix: BenchMix): EventRecord[] {
  const raw = realisticEvents(first, count).map((e, i) => withRecord(first + i, e, mix));
  // The schema takes at most a hundred events a batch.
  const out: EventRecord[] = [];
  for (let i = 0; i < raw.length; i += 100) {
    out.push(...EventBatch.parse({ events: raw.slice(i, i + 100) }).events);
  }
  return out;
}

/** An event as another contributor lists it: other words, another address, a little later. */
export function relisting(e: EventRecord, mix: BenchMix): EventRecord {
  const n = Number(e.external_id.replace(/\D/g, ""));
  const r = rng(n * 31 + 5);
  const start = Date.parse(e.starts_at);
  const forms = [
    (t: string) => `${t} Conference`,
    (t: string) => t.replace(/ 2027$/, ""),
    (t: string) => t.replace(/ 2027$/, " '27"),
    (t: string) => t.toUpperCase(),
    (t: string) => t.replace(/ /g, " - "),
  ];
  const title = mix === "heavy"
    ? `${e.title} Conference`
    : forms[Math.floor(r() * forms.length)](e.title);
  // Date-only lists give the local midnight; others are an hour apart.
  const moved = r() < 0.3 ? Math.floor(start / 86_400_000) * 86_400_000 : start + 3_600_000;
  return {
    ...e,
    external_id: `${e.external_id}-again`,
    platform: e.platform === "luma" ? "meetup" : "luma",
    source_url: `https://listing.example.net/${e.external_id}?utm_source=feed`,
    title,
    starts_at: new Date(moved).toISOString(),
    ends_at: e.ends_at,
  };
}

/** How many events of a batch of a hundred re-list earlier ones, by mix. */
export const RELISTED_PER_HUNDRED: Record<BenchMix, number> = { realistic: 7, heavy: 10 };
