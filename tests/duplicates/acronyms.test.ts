/**
 * A title written as an acronym and the title it abbreviates ("SCaLE", "Southern California
 * Linux Expo"): they share no word, so their own lookup keys find each other, and the matcher reads
 * the capitals of an acronym written in mixed case. Each with pairs that must stay apart.
 */
import assert from "node:assert/strict";
import { acronymWords } from "../../server/duplicates/normalise-title.ts";
import { matchFactsOf, type MatchSource } from "../../server/duplicates/match-facts.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { lookupFinds } from "./support/lookup.ts";

const listing = (o: Partial<MatchSource>) =>
  matchFactsOf({
    id: crypto.randomUUID(),
    title: "Conference",
    // Each its own page on a shared host: the address alone joins nothing.
    source_url: `https://www.meetup.com/e/${crypto.randomUUID()}`,
    starts_at: "2031-03-06T09:00:00Z",
    ends_at: "2031-03-09T18:00:00Z",
    city: "Pasadena",
    country: "US",
    latitude: null,
    longitude: null,
    is_virtual: false,
    is_hybrid: null,
    ...o,
  });
type Listing = ReturnType<typeof listing>;

// Detection compares a pair when either finds the other: each stores keys, the other probes them.
const found = (a: Listing, b: Listing) => lookupFinds(a, b) && lookupFinds(b, a);

Deno.test("a word with three capitals or more, at least half its letters, is an acronym", () => {
  assert.deepEqual(acronymWords("SCaLE 22x"), [{ word: "scale", letters: "scle" }]);
  assert.deepEqual(acronymWords("KCD Munich 2031"), [{ word: "kcd", letters: "kcd" }]);
  assert.deepEqual(acronymWords("Pacific NW Software Quality Conference (PNSQC)"), [
    { word: "pnsqc", letters: "pnsqc" },
  ]);
  // Names run together, and two-letter codes, are not acronyms.
  assert.deepEqual(acronymWords("DevOpsDays Oslo"), []);
  assert.deepEqual(acronymWords("PyCon US"), []);
  assert.deepEqual(acronymWords("Southern California Linux Expo"), []);
});

Deno.test("an acronym and the title it abbreviates find each other and match", () => {
  const scale = listing({ title: "SCaLE 22x" });
  const long = listing({ title: "Southern California Linux Expo 2031" });
  assert.ok(found(scale, long));
  assert.ok(matchListings(scale, long).same);
  // Lower case does not hide it: "scale" still spells s|ca|l|e.
  assert.ok(matchListings(listing({ title: "Scale" }), long).same);
  // An acronym that spells "conference" too, and one beside the city's name.
  const pnsqc = listing({ title: "PNSQC 2031", city: "Portland", country: "USA" });
  const pacific = listing({
    title: "Pacific NW Software Quality Conference",
    city: "Portland",
    country: "US",
  });
  assert.ok(found(pnsqc, pacific) && matchListings(pnsqc, pacific).same);
  const kcd = listing({ title: "KCD", city: "Munich", country: "DE" });
  const days = listing({
    title: "Kubernetes Community Days Munich",
    city: "Munich",
    country: "DE",
  });
  assert.ok(found(kcd, days) && matchListings(kcd, days).same);
});

Deno.test("the capitals of a mixed-case acronym count where its other letters start no word", () => {
  // "SToP": s, t, p start the words, though "to" starts none of them.
  const stop = listing({ title: "SToP" });
  const words = listing({ title: "Software Testing Professionals" });
  assert.ok(found(stop, words));
  assert.ok(matchListings(stop, words).same);
  // Written in lower case it has no capitals to read: "stop" is not s|t|p.
  assert.ok(!matchListings(listing({ title: "Stop" }), words).same);
});

Deno.test("an acronym of another event's title stays apart on other days or in another place", () => {
  const scale = listing({ title: "SCaLE" });
  const long = (o: Partial<MatchSource>) =>
    listing({ title: "Southern California Linux Expo", ...o });
  assert.ok(
    !matchListings(
      scale,
      long({ starts_at: "2031-03-13T09:00:00Z", ends_at: "2031-03-15T18:00:00Z" }),
    ).same,
  );
  assert.ok(!matchListings(scale, long({ city: "Toronto", country: "Canada" })).same);
  // "KCD" in Berlin is not the Kubernetes Community Days whose title names Munich.
  const kcd = listing({ title: "KCD", city: "Berlin", country: "DE" });
  const munich = listing({
    title: "Kubernetes Community Days Munich",
    city: "Munich",
    country: "DE",
  });
  assert.ok(!matchListings(kcd, munich).same);
  // A name run together is no acronym: DevOpsDays is not "Dallas Observability Day".
  const devops = listing({ title: "DevOpsDays", city: "Dallas" });
  const dallas = listing({ title: "Dallas Observability Day", city: "Dallas" });
  assert.ok(!matchListings(devops, dallas).same);
  // Two-word titles store no initials: two letters are too many titles'.
  const a = listing({ title: "Rust Nation" });
  const b = listing({ title: "Ruby Night" });
  assert.ok(!found(a, b));
});
