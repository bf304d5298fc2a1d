/** The normalisers and the matcher's rules, on the spellings real lists use. */
import assert from "node:assert/strict";
import { spellsAcronym, titleWords } from "../../server/duplicates/normalise-title.ts";
import { cityKey, countryKey, distanceKm } from "../../server/duplicates/normalise-place.ts";
import { addressKeys } from "../../server/duplicates/normalise-url.ts";
import { matchFactsOf, type MatchSource } from "../../server/duplicates/match-facts.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { canonicalOf, formGroups } from "../../server/duplicates/regroup.ts";

const urlKey = (url: string) => addressKeys(url).url;
const ownSiteKey = (url: string) => addressKeys(url).site;

Deno.test("titles lose years, editions, punctuation and the spelling of 'conference'", () => {
  assert.deepEqual(titleWords("PyCon DE & PyData 2025"), ["pycon", "pydata"]);
  assert.deepEqual(titleWords("The 13th Annual Rust Conf '25"), ["rust"]);
  assert.deepEqual(titleWords("RustConf2025"), ["rustconf"]);
  assert.equal(
    titleWords("DevOpsDays Amsterdam 2025").join(""),
    titleWords("DevOps Days Amsterdam").join(""),
  );
  assert.equal(titleWords("Café Conférence").join(""), "cafe");
  // A title of only generic words keeps them.
  assert.deepEqual(titleWords("Conference 2026"), ["conference"]);
});

Deno.test("an acronym matches the words it shortens, and only those", () => {
  assert.ok(spellsAcronym("scale", titleWords("Southern California Linux Expo")));
  assert.ok(spellsAcronym("kcd", ["kubernetes", "community", "days"]));
  assert.ok(!spellsAcronym("kcd", ["kotlin", "conf", "denmark", "extra"]));
  assert.ok(!spellsAcronym("scale", ["scale"]));
});

Deno.test("places compare in one spelling", () => {
  assert.equal(cityKey("München"), cityKey("Munich"));
  assert.equal(cityKey("Austin, TX"), "austin");
  assert.equal(cityKey("Online"), null);
  assert.equal(countryKey("USA"), countryKey("United States"));
  assert.equal(countryKey("U.K."), "gb");
  assert.ok(
    Math.abs(
      distanceKm({ latitude: 52.52, longitude: 13.405 }, {
        latitude: 48.137,
        longitude: 11.575,
      }) - 504,
    ) < 5,
  );
});

Deno.test("URLs ignore scheme, www, trailing slash, fragment and tracking parameters", () => {
  assert.equal(
    urlKey("https://www.Example.org/conf/?utm_source=x&b=2&a=1#top"),
    urlKey("http://example.org/conf?a=1&b=2"),
  );
  assert.notEqual(urlKey("https://example.org/conf?id=1"), urlKey("https://example.org/conf?id=2"));
  assert.equal(urlKey("javascript:alert(1)"), null);
  assert.equal(ownSiteKey("https://2025.pycon.de/"), "pycon.de");
  assert.equal(ownSiteKey("https://xtremepython.dev/2025/"), "xtremepython.dev");
  assert.equal(ownSiteKey("https://www.meetup.com/group/events/1"), null);
  assert.equal(ownSiteKey("https://www.socallinuxexpo.org/scale/23x"), "socallinuxexpo.org");
  // One event among a calendar's many: the host says nothing.
  assert.equal(ownSiteKey("https://events.example.org/conference/123"), null);
});

const event = (o: Partial<MatchSource>): MatchSource => ({
  id: crypto.randomUUID(),
  title: "Conference",
  source_url: "https://example.org/",
  starts_at: "2031-05-01T09:00:00Z",
  ends_at: null,
  city: null,
  country: null,
  latitude: null,
  longitude: null,
  is_virtual: false,
  is_hybrid: null,
  ...o,
});
const same = (a: Partial<MatchSource>, b: Partial<MatchSource>) =>
  matchListings(matchFactsOf(event(a)), matchFactsOf(event(b))).same;

Deno.test("the matcher joins listings of one event and keeps series editions apart", () => {
  const berlin = { city: "Berlin", country: "Germany" };
  assert.ok(same({ title: "JSConf EU 2031", ...berlin }, {
    title: "JSConf EU",
    starts_at: "2031-05-01T22:00:00Z",
    ...berlin,
  }));
  assert.ok(
    same({
      title: "SCaLE 28x",
      city: "Pasadena",
      source_url: "https://www.socallinuxexpo.org/scale/28x",
    }, {
      title: "Southern California Linux Expo",
      city: "Pasadena",
      source_url: "https://socallinuxexpo.org/",
    }),
  );
  // Same series, another city the same week; another year; another country.
  assert.ok(
    !same({ title: "DevFest Nantes", city: "Nantes" }, { title: "DevFest Lille", city: "Lille" }),
  );
  assert.ok(
    !same({ title: "PyCon US", ...berlin }, {
      title: "PyCon US",
      starts_at: "2032-05-01T09:00:00Z",
      ...berlin,
    }),
  );
  assert.ok(
    !same({ title: "PyCon US", country: "USA" }, { title: "PyCon DE", country: "Germany" }),
  );
  // A title naming its own town, against a listing elsewhere; a sibling conference online.
  assert.ok(
    !same({ title: "DevFest", city: "Nantes", country: "France" }, {
      title: "DevFest Lille",
      city: "Lille",
      country: "France",
    }),
  );
  assert.ok(
    !same({ title: "XtremeJ", is_virtual: true }, { title: "XtremeJS", is_virtual: true }),
  );
  // The same conference listed two days apart in the same city, and in the next town.
  assert.ok(same({ title: "RustLab 2031", city: "Florence" }, {
    title: "RustLab",
    city: "Firenze",
    starts_at: "2031-05-03T09:00:00Z",
  }));
  assert.ok(same({ title: "Devopsdays Zurich", city: "Zurich", country: "CH" }, {
    title: "DevOpsDays Zurich 2031",
    city: "Winterthur",
    country: "Switzerland",
  }));
  // Two numbers of one meetup series the same day: two events; the same number: one.
  assert.ok(
    !same({ title: "Rust Meetup #42", ...berlin }, { title: "Rust Meetup #43", ...berlin }),
  );
  assert.ok(
    same({ title: "Rust Meetup #42", ...berlin }, { title: "Rust Meetup Berlin #42", ...berlin }),
  );
  // Co-located: same city and days, another conference.
  assert.ok(
    !same({ title: "KubeCon + CloudNativeCon Europe", city: "London" }, {
      title: "Cloud Native Rejekts",
      city: "London",
    }),
  );
});

Deno.test("the canonical rule prefers trusted, then complete, then earliest written", () => {
  const base = { completeness: 3, created_at: new Date("2031-01-02T00:00:00Z") };
  assert.equal(
    canonicalOf([{ id: "a", trusted: false, ...base, completeness: 9 }, {
      id: "b",
      trusted: true,
      ...base,
    }]).id,
    "b",
  );
  assert.equal(
    canonicalOf([{ id: "a", trusted: true, ...base }, {
      id: "b",
      trusted: true,
      ...base,
      completeness: 4,
    }]).id,
    "b",
  );
  assert.equal(
    canonicalOf([{ id: "b", trusted: true, ...base }, {
      id: "a",
      trusted: true,
      ...base,
      created_at: new Date("2031-01-01T00:00:00Z"),
    }]).id,
    "a",
  );
});

Deno.test("an operator's 'not same' keeps two listings apart whatever links join them", () => {
  const groups = formGroups(["a", "b", "c"], [
    { a: "a", b: "b", kind: "detected", score: 1 },
    { a: "b", b: "c", kind: "detected", score: 0.9 },
    { a: "a", b: "c", kind: "not_same", score: 1 },
  ]);
  assert.deepEqual(groups, [["a", "b"]]);
  assert.deepEqual(formGroups(["a", "b"], [{ a: "a", b: "b", kind: "same", score: 1 }]), [[
    "a",
    "b",
  ]]);
});

Deno.test("names that are also properties of JavaScript objects are plain words", () => {
  // Looked up in plain objects, "constructor" was Object.prototype.constructor: a listing in a
  // city of that name made detection throw, which failed its whole batch.
  for (const name of ["Constructor", "constructor", "hasOwnProperty", "valueOf"]) {
    assert.equal(cityKey(name), name.toLowerCase(), name);
    assert.equal(countryKey(name), `~${name.toLowerCase()}`, name);
    assert.deepEqual(titleWords(`${name} Conference`), [name.toLowerCase()], name);
  }
  // Judged as any other town's name: the same pairs as with "Lyon" in its place.
  const summit = { title: "Constructor Summit", source_url: "https://a.example/" };
  for (const [a, b] of [["Constructor", "Paris"], ["Constructor", "Constructor"]]) {
    const renamed = (city: string) => city === "Constructor" ? "Lyon" : city;
    assert.equal(
      same({ ...summit, city: a }, { ...summit, source_url: "https://b.example/", city: b }),
      same({ ...summit, city: renamed(a) }, {
        ...summit,
        source_url: "https://b.example/",
        city: renamed(b),
      }),
      `${a} and ${b}`,
    );
  }
});
