/** Generated query strings: known parameters with near-miss values, unknown ones, raw junk. */
import fc from "fast-check";

const NAMES = [
  "q",
  "city",
  "country",
  "from",
  "to",
  "platform",
  "external_id",
  "external_id_prefix",
  "is_virtual",
  "attendance",
  "is_free",
  "topic",
  "limit",
  "cursor",
  "mode",
  "near",
  "radius_km",
  "when",
  "status",
  "welcome",
];

const NEAR_MISS_VALUES = [
  "",
  " ",
  "0",
  "-1",
  "101",
  "1e3",
  "1.5",
  "NaN",
  "Infinity",
  "99999999999999999999",
  "true",
  "TRUE",
  "yes",
  "2026-02-30",
  "2026-05-01T10:00:00",
  "2026-05-01T10:00:00Z",
  "0000-01-01",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-23:59",
  "52.5,13.4",
  "91,0",
  "nan,nan",
  "semantic",
  "hybrid",
  "online",
  "luma",
  "meetup",
  "evt-",
  "evt-1",
  "pending",
  "eyJzdGFydHNfYXQiOiIyMDI2IiwiaWQiOiJ4In0",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "%00",
  "\u0000",
  "\ud800",
  "🦀".repeat(200),
  "a".repeat(501),
];

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NEAR_MISS_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 600 }) },
);

const name = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 10 }) },
);

function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // A lone surrogate cannot be percent-encoded as UTF-8: send what a broken client would.
    return "%ED%A0%80";
  }
}

const pair = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(name, value).map(([n, v]) => `${encode(n)}=${encode(v)}`) },
  { weight: 1, arbitrary: name.map(encode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("%", "%zz", "=", "&&", "q=%E0%A4%A", "limit=%FF", "a=b=c", "q[]=x"),
  },
);

/** A query string (without `?`), with repeated parameters now and then. */
export const queryString: fc.Arbitrary<string> = fc.array(pair, { maxLength: 6 })
  .map((pairs) => pairs.join("&"));

/** A path segment where an id or key reference goes: real-looking, near miss, or junk. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((u) => u),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.constantFrom("evk_AbCd1234", "evk_", "..", "%2e%2e", "%00", "null", "0", "-1"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 60 }).map(encode),
);
