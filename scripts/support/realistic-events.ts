/** Generates realistic technology events (about 1-2 KB of JSON each) for benchmarks. */

const TOPICS = [
  "rust",
  "typescript",
  "postgres",
  "kubernetes",
  "machine learning",
  "security",
  "devops",
  "web performance",
  "accessibility",
  "data engineering",
  "llm",
  "observability",
  "webassembly",
  "python",
  "go",
  "cloud",
  "design systems",
  "testing",
  "mobile",
  "open source",
];
const CITIES = [
  ["Berlin", "Germany", "Europe/Berlin"],
  ["London", "United Kingdom", "Europe/London"],
  ["New York", "United States", "America/New_York"],
  ["Paris", "France", "Europe/Paris"],
  ["Amsterdam", "Netherlands", "Europe/Amsterdam"],
  ["Tokyo", "Japan", "Asia/Tokyo"],
  ["San Francisco", "United States", "America/Los_Angeles"],
  ["Lisbon", "Portugal", "Europe/Lisbon"],
];
const KINDS = ["conference", "meetup", "workshop", "webinar", "hackathon"];
const SENTENCES = [
  "Join practitioners for an evening of talks and hallway conversations.",
  "Speakers share lessons learned from running systems in production at scale.",
  "We will cover migration strategies, tooling, and the trade-offs nobody writes about.",
  "Bring a laptop: the second half is a hands-on session with guided exercises.",
  "Food and drinks are provided by our hosts; the venue is step-free.",
  "Talks are recorded and published a week after the event.",
  "Beginners are welcome; every talk starts with the fundamentals.",
  "The panel discusses hiring, on-call health and sustainable open source maintenance.",
];

/** A deterministic pseudo-random generator, so runs are comparable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` events with distinct external ids starting at `first`. */
export function realisticEvents(
  first: number,
  count: number,
  seed = 42,
): Record<string, unknown>[] {
  const r = rng(seed + first);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const [city, country, timezone] = pick(CITIES);
    const topics = [pick(TOPICS), pick(TOPICS), pick(TOPICS)];
    const kind = pick(KINDS);
    const start = Date.UTC(2027, 0, 1) + Math.floor(r() * 365) * 86_400_000 + 18 * 3_600_000;
    const sentences = Array.from({ length: 8 + Math.floor(r() * 8) }, () => pick(SENTENCES));
    const event = {
      external_id: `bench-${n}`,
      platform: pick(["luma", "meetup", "eventbrite", "ics_feed"]),
      source_url: `https://events.example.org/${kind}/${n}`,
      title: `${topics[0]} ${kind} ${city} #${n}`,
      description: `${topics.join(", ")}. ${sentences.join(" ")}`,
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 3 * 3_600_000).toISOString(),
      timezone,
      venue_name: `Venue ${n % 50}`,
      city,
      country,
      latitude: 50 + r(),
      longitude: 10 + r(),
      is_free: r() < 0.6,
      price_min: 0,
      price_max: Math.round(r() * 200),
      currency: "EUR",
      event_type: kind,
      categories: ["technology"],
      tags: [...topics, kind, city.toLowerCase()],
      topics,
      organiser_name: `${city} ${topics[0]} community`,
      organiser_url: `https://community.example.org/${n % 100}`,
      attendee_count: Math.floor(r() * 300),
      capacity: 300,
    };
    // A free event has no price above 0 (the shared rules refuse one); drawn as before, so the
    // same seed gives the same events otherwise.
    if (event.is_free) event.price_max = 0;
    return event;
  });
}
