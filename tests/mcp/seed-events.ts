/** Events for the MCP tests, around the current time, pushed through the real API. */
import { createApiKey, postBatch, type TestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";

const DAY = 86_400_000;

/** `days` from now at a whole hour, UTC, ISO 8601. */
export function daysFromNow(days: number): string {
  const t = new Date(Date.now() + days * DAY);
  t.setUTCMinutes(0, 0, 0);
  return t.toISOString();
}

/** The events, by external id. */
export function showcase() {
  return [
    sampleEvent(1, {
      title: "Rust Berlin: ownership in practice",
      description: "Two talks on borrowing and lifetimes. Then pizza. " +
        "The first talk covers the borrow checker in depth, with many examples. ".repeat(8),
      starts_at: daysFromNow(3),
      timezone: "Europe/Berlin",
      venue_name: "c-base",
      city: "Berlin",
      country: "Germany",
      latitude: 52.513,
      longitude: 13.42,
      topics: ["rust"],
    }),
    sampleEvent(2, {
      title: "Rust Lisbon meetup",
      starts_at: daysFromNow(10),
      timezone: "Europe/Lisbon",
      city: "Lisbon",
      country: "Portugal",
      latitude: 38.72,
      longitude: -9.14,
      is_free: false,
      price_min: 10,
      price_max: 20,
      currency: "EUR",
      topics: ["rust"],
    }),
    sampleEvent(3, {
      title: "AI safety online conference",
      starts_at: daysFromNow(5),
      is_virtual: true,
      topics: ["machine learning"],
    }),
    sampleEvent(4, {
      title: "Hybrid Kubernetes day",
      starts_at: daysFromNow(20),
      city: "porto",
      country: "Portugal",
      latitude: 41.15,
      longitude: -8.61,
      is_hybrid: true,
      topics: ["kubernetes"],
    }),
    sampleEvent(5, {
      title: "Past Rust meetup",
      starts_at: daysFromNow(-10),
      city: "Berlin",
      country: "Germany",
      topics: ["rust"],
    }),
    sampleEvent(6, {
      title: "Go conference Sintra",
      starts_at: daysFromNow(30),
      city: "Sintra",
      country: "Portugal",
      latitude: 38.8,
      longitude: -9.38,
      topics: ["go"],
    }),
  ];
}

/** Pushes the showcase events with a new key; returns the key. */
export async function pushShowcase(server: TestServer, contributor = "showcase") {
  const key = await createApiKey(server, { contributor, rate_limit_per_minute: 1000 });
  const res = await postBatch(server.url, key.key, { events: showcase() });
  if (res.status !== 200) throw new Error(`Cannot seed: ${JSON.stringify(res.body)}`);
  return key;
}
