/** The lookup keys and window that bound detection's candidates, against the matcher's rules. */
import assert from "node:assert/strict";
import { matchFactsOf, type MatchSource } from "../../server/duplicates/match-facts.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import {
  candidateBounds,
  factsFingerprint,
  storedKeys,
} from "../../server/duplicates/lookup-keys.ts";
import { lookupFinds } from "./support/lookup.ts";

const listing = (o: Partial<MatchSource>) =>
  matchFactsOf({
    id: "a",
    title: "Rust Nation",
    source_url: "https://rustnation.example.org/",
    starts_at: "2031-02-10T09:00:00Z",
    ends_at: null,
    city: "London",
    country: "GB",
    latitude: 51.5,
    longitude: -0.12,
    is_virtual: false,
    is_hybrid: null,
    ...o,
  });

const shareAKey = (a: ReturnType<typeof listing>, b: ReturnType<typeof listing>) =>
  lookupFinds(a, b);

Deno.test("the matcher never joins listings outside the candidate bounds", () => {
  const a = listing({});
  const window = candidateBounds(a);
  const [south, north] = window.latitudes!;
  // Everything alike but the place: one degree and a bit north or south is too far.
  assert.ok(matchListings(a, listing({ id: "b", latitude: 51.5 + 0.2 })).same);
  assert.ok(
    !matchListings(a, listing({ id: "b", latitude: north + 0.001, longitude: -0.12 })).same,
  );
  assert.ok(
    !matchListings(a, listing({ id: "b", latitude: south - 0.001, longitude: -0.12 })).same,
  );
  // Online listings are the same place wherever their coordinates: no band for them.
  const online = { city: null, country: null, is_virtual: true };
  assert.ok(matchListings(listing(online), listing({ ...online, id: "b", latitude: 10 })).same);
  assert.equal(candidateBounds(listing(online)).latitudes, null);
  // Everything alike but the time: the same address, title and city.
  const just = (ms: number) => listing({ id: "b", starts_at: new Date(ms).toISOString() });
  assert.ok(matchListings(a, just(window.to.getTime() - 3_600_000)).same);
  assert.ok(!matchListings(a, just(window.to.getTime() + 60_000)).same);
  assert.ok(!matchListings(a, just(window.from.getTime() - 60_000)).same);
});

Deno.test("listings of one conference share a key whatever kind words their titles add", () => {
  const a = listing({ title: "Rust User Group London #12", source_url: "https://a.example/1" });
  const b = listing({ id: "b", title: "Rust London #12 Meetup", source_url: "https://b.example/" });
  assert.ok(shareAKey(a, b) && shareAKey(b, a));
  // A title left with one naming word ("React") finds the longer ones, and they find it.
  const short = listing({ id: "c", title: "React Summit", source_url: "https://c.example/" });
  const long = listing({ id: "d", title: "React Summit London", source_url: "https://d.example/" });
  assert.ok(matchListings(short, long).same);
  assert.ok(shareAKey(short, long) && shareAKey(long, short));
  // Two series meeting in one city share the city and the kind words, not a key.
  const rust = listing({ title: "Rust User Group Oslo", source_url: "https://e.example/" });
  const go = listing({ id: "f", title: "Go User Group Oslo", source_url: "https://f.example/" });
  assert.ok(!shareAKey(rust, go) && !shareAKey(go, rust));
});

Deno.test("a lookup reaches the listings within the matcher's 60 hours, not a week off", () => {
  const a = listing({});
  const at = (iso: string, ends?: string) =>
    listing({ id: "b", starts_at: iso, ends_at: ends ?? null, source_url: "https://b.example/" });
  // The same title on the days around: found, whichever looks the other up.
  for (const iso of ["2031-02-07T22:00:00Z", "2031-02-12T20:00:00Z", "2031-02-10T09:00:00Z"]) {
    assert.ok(matchListings(a, at(iso)).same, iso);
    assert.ok(shareAKey(a, at(iso)) && shareAKey(at(iso), a), iso);
  }
  // A week off holds the same keys, but not on days in reach.
  assert.ok(!shareAKey(a, at("2031-02-17T09:00:00Z")) && !shareAKey(at("2031-02-03T09:00:00Z"), a));
  // A multi-day listing is found over its days: a ten-day one starting a week before.
  const long = at("2031-02-03T09:00:00Z", "2031-02-12T18:00:00Z");
  assert.ok(shareAKey(a, long) && shareAKey(long, a));
});

Deno.test("a listing's key set changes exactly when a field the matcher reads changes", () => {
  const keys = (o: Partial<MatchSource>) =>
    `${factsFingerprint(listing(o))} ${storedKeys(listing(o)).sort().join()}`;
  assert.equal(keys({}), keys({}));
  // Fields the matcher does not read (the id here) leave the keys as they were.
  assert.equal(keys({}), keys({ id: "other" }));
  for (
    const change of [
      { starts_at: "2031-02-10T12:00:00Z" },
      { city: "Leeds" },
      { title: "Rust Nation UK" },
      { source_url: "https://rustnation.example.org/2031" },
      { latitude: 52 },
    ]
  ) {
    assert.notEqual(keys({}), keys(change), JSON.stringify(change));
  }
});
