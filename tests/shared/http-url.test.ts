/**
 * isHttpUrl answers as WHATWG URL parsing does: its quick path for plain hosts must never accept
 * what `new URL` refuses (a numeric last label, Punycode, a port out of range, user info, ...).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { isHttpUrl } from "../../shared/http-url.ts";
import { fuzzRuns, fuzzSeed } from "../hardening/support/fuzz-runs.ts";

/** The rule written plainly: what the quick path must agree with. */
function parsedAsHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const label = fc.oneof(
  fc.stringMatching(/^[a-z0-9-]{0,6}$/),
  fc.constantFrom(
    ...["xn--", "xn--abc", "XN--p1ai", "xn--ls8h", "0x", "0X1f", "0x1g", "08", "1", "255", "256"],
    ...["4294967295", "4294967296", "-", "a-", "--", "é", "ß", "a_b", "%41", "a b", ""],
    ...["localhost", "EXAMPLE", "１", "a\tb"],
  ),
);
const scheme = fc.constantFrom(
  ...["http://", "https://", "HTTP://", "hTtPs://", "http:/", "http:///", "ftp://", "http:\\\\"],
  ...["http://user@", "http://u:p@", " http://", "javascript://"],
);
const after = fc.oneof(
  fc.constantFrom(...["", "/", "?", "#", ":", ":80", ":99999", ":0x", "/path?q=1#f", "\\x", " x"]),
  fc.constantFrom(...["\t/", "@x", ".", "..", "./", "]", "[::1]", "/\u0000", "/é"]),
  fc.string({ maxLength: 6 }),
);
const urls = fc.tuple(
  scheme,
  fc.array(label, { maxLength: 5 }).map((labels) => labels.join(".")),
  fc.constantFrom("", ".", ".."),
  after,
).map((parts) => parts.join(""));

Deno.test("isHttpUrl agrees with WHATWG URL parsing on hosts near its quick path", () => {
  fc.assert(
    fc.property(urls, (text) => isHttpUrl(text) === parsedAsHttpUrl(text)),
    { numRuns: fuzzRuns(5000), seed: fuzzSeed() },
  );
});

Deno.test("isHttpUrl takes plain web addresses and refuses hosts that are no host", () => {
  for (const good of ["https://events.example.org/c/1", "HTTP://Example.COM", "http://a-b.c./x"]) {
    assert.ok(isHttpUrl(good), good);
  }
  for (
    const bad of [
      "https://example.0x1f",
      "http://example.123/",
      "http://1.2.3.256/",
      "http://xn--a.com/",
      "http://example.com:99999/",
      "http://",
      "mailto:x@example.org",
      "//example.org",
    ]
  ) {
    assert.equal(isHttpUrl(bad), parsedAsHttpUrl(bad), bad);
    assert.ok(!isHttpUrl(bad), bad);
  }
});
