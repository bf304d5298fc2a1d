/**
 * Generated events for property-based tests: valid events over the whole range the contract
 * allows, and near misses (a valid event with exactly one field broken) that must be refused.
 */
import fc from "fast-check";
import { EVENT_FIELDS, PLATFORMS } from "../../../shared/event-schema.ts";

type Json = Record<string, unknown>;

/** Any text that is valid in a field: not blank, no NUL, no lone surrogate, at most `max` long. */
export function validText(max: number, min = 1): fc.Arbitrary<string> {
  return fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, 60) })
    .filter((s) => s.trim() !== "" && !s.includes("\u0000") && !/\p{Cs}/u.test(s));
}

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
  "UTC",
];

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

function wallTime(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A date-time as a contributor may write it: with Z, with an offset, or local with a zone. */
const instant = fc.date({
  min: new Date("0002-01-01T00:00:00Z"),
  max: new Date("9998-12-31T00:00:00Z"),
  noInvalidDate: true,
});

export const validTimes: fc.Arbitrary<Json> = fc.tuple(
  instant,
  fc.option(fc.integer({ min: 0, max: 90 * 86_400 }), { nil: undefined }),
  fc.oneof(
    fc.constant({ kind: "z" as const }),
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }).map((m) => ({
      kind: "offset" as const,
      minutes: m,
    })),
    fc.constantFrom(...ZONES).map((zone) => ({ kind: "zone" as const, zone })),
  ),
).map(([start, durationS, form]) => {
  const end = durationS === undefined ? undefined : new Date(start.getTime() + durationS * 1000);
  if (form.kind === "z") {
    return { starts_at: start.toISOString(), ...(end ? { ends_at: end.toISOString() } : {}) };
  }
  if (form.kind === "offset") {
    const sign = form.minutes < 0 ? "-" : "+";
    const suffix = `${sign}${pad(Math.trunc(form.minutes / 60))}:${pad(form.minutes % 60)}`;
    const shift = (d: Date) => wallTime(new Date(d.getTime() + form.minutes * 60_000)) + suffix;
    return { starts_at: shift(start), ...(end ? { ends_at: shift(end) } : {}) };
  }
  // A local start without an end: a local end could fall before it across a DST change.
  return { starts_at: wallTime(start), timezone: form.zone };
});

const httpUrl = fc.tuple(
  fc.constantFrom("http", "https", "HTTPS"),
  fc.domain(),
  fc.webPath(),
).map(([scheme, host, path]) => `${scheme}://${host}${path}`);

const prices = fc.oneof(
  fc.constant({}),
  fc.tuple(
    fc.double({ min: 0, max: 1e9, noNaN: true }),
    fc.double({ min: 0, max: 1e9, noNaN: true }),
  ).map(([a, b]) => ({ price_min: Math.min(a, b), price_max: Math.max(a, b), is_free: false })),
  fc.constant({ price_min: 0, price_max: 0, is_free: true }),
  fc.double({ min: 0.01, max: 1e9, noNaN: true }).map((p) => ({ price_max: p })),
);

const labelList = (max: number) => fc.array(validText(100), { maxLength: Math.min(max, 6) });

const optionalFields = fc.record({
  platform: fc.constantFrom(...PLATFORMS),
  description: validText(10_000),
  venue_name: validText(500),
  city: validText(500),
  country: validText(500),
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  is_virtual: fc.boolean(),
  is_hybrid: fc.option(fc.boolean(), { nil: null }),
  currency: fc.stringMatching(/^[A-Z]{3}$/),
  is_sold_out: fc.boolean(),
  event_type: validText(500),
  categories: labelList(20),
  tags: labelList(50),
  topics: labelList(20),
  organiser_name: validText(500),
  organiser_url: httpUrl,
  cover_image_url: httpUrl,
  attendee_count: fc.integer({ min: 0, max: 2_147_483_647 }),
  capacity: fc.integer({ min: 0, max: 2_147_483_647 }),
}, { requiredKeys: [] });

/** A valid event; `ids` chooses its external_id (a small pool makes batches update each other). */
export function validEvent(ids: fc.Arbitrary<string> = validText(500)): fc.Arbitrary<Json> {
  return fc.tuple(ids, httpUrl, validText(500), validTimes, prices, optionalFields)
    .map(([external_id, source_url, title, times, price, rest]) => ({
      external_id,
      source_url,
      title,
      ...times,
      ...rest,
      ...price,
    }));
}

const REQUIRED = ["external_id", "source_url", "title", "starts_at"];
const TEXT_FIELDS: [string, number][] = [
  ["external_id", 500],
  ["title", 500],
  ["description", 10_000],
  ["venue_name", 500],
  ["city", 500],
  ["country", 500],
  ["event_type", 500],
  ["organiser_name", 500],
];
const URL_FIELDS = ["source_url", "organiser_url", "cover_image_url"];
const SERVER_OWNED = [
  "id",
  "created_at",
  "updated_at",
  "in_ai_search",
  "contributor_id",
  "trusted",
];
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string(), { minLength: 1, maxLength: 2 }),
);

type Mutation = (e: Json) => fc.Arbitrary<Json>;
const set = (field: string, value: fc.Arbitrary<unknown>): Mutation => (e) =>
  value.map((v) => ({ ...e, [field]: v }));

/** Each way to break exactly one field so that the contract says the event is invalid. */
const MUTATIONS: Mutation[] = [
  (e) =>
    fc.constantFrom(...REQUIRED).map((f) => {
      const { [f]: _gone, ...rest } = e;
      return rest;
    }),
  (e) =>
    fc.tuple(fc.constantFrom(...REQUIRED), fc.constantFrom("", "   ", "\t\n", null))
      .map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.tuple(fc.constantFrom(...TEXT_FIELDS.map(([f]) => f), ...URL_FIELDS), notAString)
      .map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.tuple(fc.constantFrom(...TEXT_FIELDS), fc.constantFrom("\u0000", "\ud800", "\udfff"))
      .map(([[f], bad]) => ({ ...e, [f]: `a${bad}b` })),
  (e) =>
    fc.tuple(fc.constantFrom(...TEXT_FIELDS), fc.constantFrom("x", "é", "🦀"))
      .map(([[f, max], ch]) => ({ ...e, [f]: ch.repeat(max + 1) })),
  set("source_url", fc.constantFrom("https://e.org/" + "a".repeat(2049))),
  (e) =>
    fc.tuple(
      fc.constantFrom(...URL_FIELDS),
      fc.constantFrom(
        "javascript:alert(1)",
        "data:text/html,<b>x</b>",
        "ftp://example.org/x",
        "/relative/path",
        "example.org",
        "http://",
        "https:// spaced.example",
      ),
    ).map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.tuple(
      fc.constantFrom("starts_at", "ends_at"),
      fc.constantFrom(
        "2026-02-30T10:00:00Z",
        "2026-05-01",
        "2026-13-01T10:00:00Z",
        "2026-05-01T24:30:00Z",
        "2026-05-01T10:00:00+24:00",
        "2026-05-01T10:00:00-24:00",
        "2026-05-01T10:00:00+05:60",
        "0000-06-01T10:00:00Z",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-01:00",
        "tomorrow at noon",
        "1714557600",
        "2026-05-01T10:00:00 Z",
      ),
    ).map(([f, v]) => ({ ...e, timezone: null, [f]: v })),
  (e) => fc.constant({ ...e, timezone: null, starts_at: "2026-05-01T10:00:00" }),
  (e) =>
    fc.constant({
      ...e,
      timezone: null,
      starts_at: "2026-05-02T10:00:00Z",
      ends_at: "2026-05-01T10:00:00Z",
    }),
  set("timezone", fc.constantFrom("Mars/Olympus_Mons", "Europe/Berln", "GMT+25", "../etc/passwd")),
  set("platform", fc.oneof(fc.constantFrom("facebook", "LUMA", "Meetup ", "ics"), fc.integer())),
  set(
    "latitude",
    fc.oneof(fc.double({ min: 90.0001, max: 1e6, noNaN: true }), fc.constant("52.5")),
  ),
  set("longitude", fc.double({ min: -1e6, max: -180.0001, noNaN: true })),
  set("price_min", fc.double({ min: -1e6, max: -0.0001, noNaN: true })),
  (e) => fc.constant({ ...e, price_min: 20, price_max: 10, is_free: false }),
  (e) =>
    fc.double({ min: 0.01, max: 1e6, noNaN: true })
      .map((p) => ({ ...e, price_min: undefined, price_max: p, is_free: true })),
  set("currency", fc.constantFrom("usd", "EURO", "E1R", "€")),
  (e) =>
    fc.tuple(
      fc.constantFrom("attendee_count", "capacity"),
      fc.constantFrom(-1, 1.5, 2_147_483_648, "12"),
    ).map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.tuple(
      fc.constantFrom("is_virtual", "is_free", "is_sold_out", "is_hybrid"),
      fc.constantFrom("true", 1, 0, "yes"),
    ).map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.tuple(
      fc.constantFrom("categories", "tags", "topics"),
      fc.constantFrom<unknown>([""], ["   "], "rust", [1], ["x".repeat(101)], [null]),
    ).map(([f, v]) => ({ ...e, [f]: v })),
  set("categories", fc.constant(Array.from({ length: 21 }, (_, i) => `c${i}`))),
  (e) =>
    fc.tuple(fc.constantFrom(...SERVER_OWNED), fc.jsonValue())
      .map(([f, v]) => ({ ...e, [f]: v })),
  (e) =>
    fc.string({ minLength: 1, maxLength: 20 })
      .filter((k) => !Object.hasOwn(e, k) && !(EVENT_FIELDS as string[]).includes(k))
      .map((k) => ({ ...e, [k]: "surprise" })),
];

/** A valid event with exactly one field broken, or an item that is not an event at all. */
export function nearMissEvent(ids?: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 20,
      arbitrary: validEvent(ids).chain((e) => fc.oneof(...MUTATIONS.map((m) => m(e)))),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, "event", [], true) },
  );
}
