/**
 * The matching rules added from the larger labelled set (docs/duplicates.md#evaluation): places
 * written with US states and regions, countries named in titles, acronyms of several words,
 * bracketed other names, a title naming its own city. Each with a pair that must stay apart.
 */
import assert from "node:assert/strict";
import {
  coreOfCompact,
  foldText,
  otherNames,
  titleWords,
} from "../../server/duplicates/normalise-title.ts";
import { countryKey, isKnownCountry } from "../../server/duplicates/normalise-place.ts";
import { matchFactsOf, type MatchSource } from "../../server/duplicates/match-facts.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { titleSimilarity } from "../../server/duplicates/title-likeness.ts";

// The title's naming words run together.
const compactTitle = (title: string) => titleWords(title).join("");

// Each listing its own page on a shared host: the address alone joins nothing.
const event = (o: Partial<MatchSource>): MatchSource => ({
  id: crypto.randomUUID(),
  title: "Conference",
  source_url: `https://www.meetup.com/e/${crypto.randomUUID()}`,
  starts_at: "2031-05-01T09:00:00Z",
  ends_at: "2031-05-02T18:00:00Z",
  city: null,
  country: null,
  latitude: null,
  longitude: null,
  is_virtual: false,
  is_hybrid: null,
  ...o,
});
const facts = (o: Partial<MatchSource>) => matchFactsOf(event(o));
const same = (a: Partial<MatchSource>, b: Partial<MatchSource>) =>
  matchListings(facts(a), facts(b)).same;
const similarity = (a: Partial<MatchSource>, b: Partial<MatchSource>) =>
  titleSimilarity(facts(a), facts(b));

Deno.test("a US state, or a known country at the end, names the country; an ambiguous code none", () => {
  assert.equal(countryKey("Illinois USA"), "us");
  assert.equal(countryKey("Oklahoma"), "us");
  assert.equal(countryKey("TX"), "us");
  assert.equal(countryKey("Washington, D.C. USA"), "us");
  assert.equal(countryKey("Bilbao, Spain and Online"), "es");
  assert.equal(countryKey("Sofia, Bulgaria & Online"), "bg");
  // "CA" is California as often as Canada, "DE" Delaware as Germany.
  assert.equal(countryKey("CA"), null);
  assert.equal(countryKey("DE"), null);
  assert.equal(countryKey("Canada"), "ca");
  // An unknown name is kept, marked, and never taken for a code ("CR" for the Czech Republic).
  assert.equal(countryKey("CR"), "~cr");
  assert.ok(!isKnownCountry(countryKey("CR")));
  assert.ok(isKnownCountry(countryKey("Costa Rica")));
});

Deno.test("places: a state or region is the same country; only two known countries conflict", () => {
  assert.ok(same({ title: "React Loop", city: "Chicago, IL", country: "U.S.A." }, {
    title: "React Loop 2031",
    city: "Chicago",
    country: "Illinois USA",
  }));
  assert.ok(same({ title: "Reactathon", city: "Berkeley, CA", country: "U.S.A." }, {
    title: "Reactathon 2031",
    city: "Berkeley",
    country: "CA",
  }));
  assert.ok(same({ title: "Testing United", city: "Prague", country: "Czech Republic" }, {
    title: "Testing United 2031",
    city: "Prague",
    country: "CR",
  }));
  // Two countries the table knows still keep listings apart.
  assert.ok(
    !same({ title: "PyData", city: "Cambridge", country: "UK" }, {
      title: "PyData",
      city: "Cambridge",
      country: "Canada",
    }),
  );
});

Deno.test("countries named in titles are one word, however spelt", () => {
  assert.deepEqual(titleWords("PyCon SK 2031"), titleWords("PyCon Slovakia"));
  assert.deepEqual(titleWords("PyCon Italia"), titleWords("PyCon Italy"));
  assert.deepEqual(titleWords("PyCon TW"), titleWords("PyCon Taiwan"));
  assert.equal(compactTitle("PyConZA"), compactTitle("PyCon South Africa"));
  assert.equal(compactTitle("PyCon Latam"), compactTitle("PyCon Latin America"));
  // "PyCon DE": "de" is a preposition in titles, and stays out.
  assert.deepEqual(titleWords("PyCon DE"), ["pycon"]);
  // Two countries of one series the same days stay two events.
  assert.ok(
    !same({ title: "PyCon SK", is_virtual: true }, { title: "PyCon CZ", is_virtual: true }),
  );
  assert.ok(same({ title: "PyCon SK", city: "Bratislava" }, {
    title: "PyCon Slovakia",
    city: "Bratislava",
  }));
});

Deno.test("letters without decomposition are spelt out: Testμ is TestMu", () => {
  assert.equal(foldText("Testμ Conference"), "testmu conference");
  assert.equal(compactTitle("TestMu Conference 2031"), compactTitle("Testμ Conference 2031"));
});

Deno.test("a bracketed name or the name before a tagline is another name of the event; a 'conf' run into the name is not", () => {
  assert.deepEqual(
    otherNames("Pacific Northwest Software Quality Conference (PNSQC) 2031"),
    [["pnsqc"]],
  );
  assert.deepEqual(otherNames("TestFlix - Global Software Testing Conference"), [["testflix"]]);
  assert.deepEqual(otherNames("CypressConf | Call For Papers"), [["cypressconf"]]);
  // A hyphen inside a name is no separator; a bracket holding the whole name says nothing more.
  assert.deepEqual(otherNames("Render-Atlanta"), []);
  assert.deepEqual(otherNames("(PNSQC)"), []);
  assert.equal(
    similarity({ title: "TestFlix - Global Software Testing Conference" }, {
      title: "TestFlix 2031",
    }),
    1,
  );
  assert.equal(
    similarity({ title: "Render-Atlanta (RenderATL)" }, { title: "render(ATL) 2031" }),
    1,
  );
  assert.equal(coreOfCompact("reactconf"), "react");
  assert.equal(coreOfCompact("jsconf"), "jsconf");
  assert.equal(similarity({ title: "ReactConf" }, { title: "React Conf 2031" }), 1);
  // A listing titled "Kotlin" (a meetup) is not KotlinConf.
  assert.ok(similarity({ title: "KotlinConf" }, { title: "Kotlin" }) < 0.85);
});

Deno.test("a word may be an acronym of several of the other title's words", () => {
  assert.ok(
    similarity({ title: "AgileTD Open Air" }, {
      title: "Agile Testing Days (ATD) Open Air Festival",
    }) >= 0.85,
  );
  // A one-word acronym may stand for 'conference' too.
  assert.ok(
    similarity({ title: "PNSQC 2031" }, { title: "Pacific NW Software Quality Conference" }) >=
      0.9,
  );
  // Two letters are too few to stand for a run of words.
  assert.ok(similarity({ title: "JS Nation" }, { title: "Java Summit Nation Day" }) < 0.85);
});

Deno.test("a title naming its own city matches the same name without it, and only the same name", () => {
  const vienna = { city: "Vienna", country: "Austria" };
  assert.ok(same({ title: "React Day Berlin", city: "Berlin" }, {
    title: "React Day 2031",
    city: "Berlin",
  }));
  assert.ok(same({ title: "droidcon Lisbon", city: "Lisbon" }, {
    title: "droidconlisbon",
    city: "Lisbon",
  }));
  // Without its city a title is "Software Testing": common words, not a name.
  assert.ok(
    !same({ title: "Istanbul Software Testing Conference", city: "Istanbul" }, {
      title: "Live2Test - The Premier Online Conference For Software Testing",
      city: "Istanbul",
    }),
  );
  // Another conference in the same city keeps its own name.
  assert.ok(
    !same({ title: "DevOpsDays Vienna", ...vienna }, { title: "Vienna Testing Days", ...vienna }),
  );
});

Deno.test("a one-word title inside a longer one is the same name only with the same site or days", () => {
  const london = { city: "London", country: "UK" };
  // A series' word and another of its conferences, a day apart in one city: two events.
  assert.ok(
    !same({ title: "React Conf", ...london, starts_at: "2031-05-01T09:00:00Z" }, {
      title: "React Advanced",
      ...london,
      starts_at: "2031-05-02T09:00:00Z",
      ends_at: "2031-05-02T18:00:00Z",
    }),
  );
  // The same days, or the same site: one event described at more length.
  assert.ok(same({ title: "EuroSTAR Conference", ...london }, {
    title: "EuroSTAR 2031 Software Testing Conference",
    ...london,
  }));
  assert.ok(
    same({ title: "TestFlix", is_virtual: true, source_url: "https://thetesttribe.com/testflix" }, {
      title: "TestFlix - Global Software Testing Conference",
      is_virtual: true,
      starts_at: "2031-05-01T15:00:00Z",
      ends_at: "2031-05-03T18:00:00Z",
      source_url: "https://thetesttribe.com/testflix/",
    }),
  );
});

Deno.test("a title naming the country both listings are in is also read without it", () => {
  assert.ok(same({ title: "PyCon", city: "Cleveland, OH", country: "U.S.A." }, {
    title: "PyCon US",
    city: "Cleveland",
    country: "USA",
    starts_at: "2031-05-01T09:00:00Z",
    ends_at: "2031-05-03T18:00:00Z",
  }));
  // Two towns of one country: the country's name in one title is no licence to drop it.
  assert.ok(
    !same({ title: "DevFest", city: "Nantes", country: "France" }, {
      title: "DevFest France",
      city: "Lille",
      country: "France",
    }),
  );
  // Another country's edition stays apart even online.
  assert.ok(
    !same({ title: "PyCon US", is_virtual: true }, { title: "PyCon UK", is_virtual: true }),
  );
});

Deno.test("stops of a tour are other events: one name, cities far apart, other days", () => {
  const stop = (city: string, day: number, lat?: number, lon?: number) => ({
    title: "Cloud Summit Roadshow",
    starts_at: `2031-05-0${day}T09:00:00+02:00`,
    ends_at: `2031-05-0${day}T17:00:00+02:00`,
    city,
    country: "Spain",
    latitude: lat ?? null,
    longitude: lon ?? null,
  });
  // By the place normaliser, without coordinates; and by coordinates.
  assert.equal(same(stop("Madrid", 1), stop("Barcelona", 2)), false);
  assert.equal(same(stop("Barcelona", 2), stop("Valencia", 3)), false);
  assert.equal(same(stop("Madrid", 1, 40.42, -3.7), stop("Valencia", 3, 39.47, -0.38)), false);
  // Within 50 km a neighbouring town; further, on other days, another stop.
  assert.equal(same(stop("Köln", 1, 50.94, 6.96), stop("Bonn", 2, 50.73, 7.1)), true, "28 km");
  assert.equal(same(stop("Aachen", 1, 50.78, 6.08), stop("Bonn", 2, 50.73, 7.1)), false, "72 km");
  // A town and its neighbour, one city's spellings, and the same day stay one event.
  const berlin = stop("Berlin", 1, 52.52, 13.4);
  assert.equal(same(berlin, stop("Potsdam", 2, 52.39, 13.06)), true);
  assert.equal(same(stop("Munich", 1), stop("München", 2)), true);
  assert.equal(same(stop("Madrid", 1), { ...stop("Alcalá de Henares", 1) }), true);
});
