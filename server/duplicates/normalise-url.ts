/** Source URLs as the matcher compares them: the same page however it was linked. */
import { SHARED_HOSTS } from "../data/matching-names.ts";

// Parameters that say where a visitor came from, not which page they asked for.
const TRACKING =
  /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ref|ref_src|source|src|igshid|_ga|yclid)$/i;

function parse(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

/** Host without `www.` and port, lower case. */
function hostOf(u: URL): string {
  // Each pattern only where it can match: most hosts have neither.
  const host = u.hostname.toLowerCase();
  const named = host.startsWith("www") ? host.replace(/^www\d?\./, "") : host;
  return named.endsWith(".") ? named.slice(0, -1) : named;
}

/** urlKey and ownSiteKey of one address, parsing it once. */
export function addressKeys(
  url: string | null | undefined,
): { url: string | null; site: string | null } {
  const u = url ? parse(url) : null;
  if (u === null) return { url: null, site: null };
  const host = hostOf(u);
  return { url: urlKeyOf(u, host), site: ownSiteOf(u, host) };
}

/**
 * One spelling of a page's address: no scheme, no `www.`, no trailing slash, no fragment, no
 * tracking parameters, the rest of the query sorted. Null for what is not an http(s) URL.
 */
export function urlKey(url: string | null | undefined): string | null {
  const u = url ? parse(url) : null;
  return u ? urlKeyOf(u) : null;
}

function urlKeyOf(u: URL, host = hostOf(u)): string {
  // Most addresses have no query, or only a feed's tracking parameters: reading the parameters
  // as URLSearchParams does costs more than the rest of the address.
  const params = u.search === "" || onlyTracking(u.search) ? [] : [...u.searchParams.entries()]
    .filter(([k]) => !TRACKING.test(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const path = withoutTrailingSlash(decodeSafe(u.pathname));
  const query = params.length > 0 ? `?${new URLSearchParams(params)}` : "";
  return `${host}${path.toLowerCase()}${query}`;
}

/**
 * Whether every parameter of a query ("?utm_source=feed&ref=x") is a tracking one, read from
 * its text where the names need no decoding (no `%`, no `+`): false when one may not be.
 */
function onlyTracking(search: string): boolean {
  for (const piece of search.slice(1).split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq);
    if (name.includes("%") || name.includes("+") || !TRACKING.test(name)) return false;
  }
  return true;
}

/**
 * The site an event has to itself (its host), or null when the host is one many events share
 * (Meetup, Luma, GitHub...), the address is a page deep in a site (more than two path segments,
 * or a numbered one other than a year: one event among many of a calendar) or the URL is not
 * http(s).
 */
export function ownSiteKey(url: string | null | undefined): string | null {
  const u = url ? parse(url) : null;
  return u ? ownSiteOf(u) : null;
}

/** A path without its trailing slashes, or a trailing `/index.html` or `/index.htm`. */
function withoutTrailingSlash(path: string): string {
  // The patterns only where the path ends as they can match ("/", "l", "m" in either case).
  const last = path.charCodeAt(path.length - 1) | 0x20;
  const cut = last === SLASH_FOLDED || last === LOWER_L || last === LOWER_M
    ? path.replace(/\/(index\.html?)?$/i, "")
    : path;
  return cut.endsWith("/") ? cut.replace(/\/+$/, "") : cut;
}

// Character codes with the case bit set (0x20): "/" is unchanged by it.
const SLASH_FOLDED = 0x2f;
const LOWER_L = 0x6c;
const LOWER_M = 0x6d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Whether a path is a page deep in a site: more than two segments, or a numbered one other than
 * a year (one event among many of a calendar). Read without splitting it.
 */
function deepPath(path: string): boolean {
  let segments = 0;
  for (let from = 0; from <= path.length;) {
    let to = path.indexOf("/", from);
    if (to < 0) to = path.length;
    if (to > from) {
      if (++segments > 2 || numberedNotYear(path, from, to)) return true;
    }
    from = to + 1;
  }
  return false;
}

/** Whether `path` from `from` to `to` is all digits, and not a year (19xx or 20xx). */
function numberedNotYear(path: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = path.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return false;
  }
  const year = to - from === 4 && (path.startsWith("19", from) || path.startsWith("20", from));
  return !year;
}

function ownSiteOf(u: URL, host = hostOf(u)): string | null {
  if (deepPath(u.pathname)) return null;
  // The host and each domain above it ("gdg.community.dev", "community.dev"): each text from a
  // label on that has a dot after it.
  for (let at = 0, dot = host.indexOf("."); dot >= 0; at = dot + 1, dot = host.indexOf(".", at)) {
    if (SHARED_HOSTS.has(host.slice(at))) return null;
  }
  // "2025.pycon.de" and "pycon.de" are one site; a year or an edition number leads the host.
  const first = host.charCodeAt(0);
  return first >= DIGIT_0 && first <= DIGIT_9 ? host.replace(/^((19|20)\d\d|\d{1,2})\./, "") : host;
}

function decodeSafe(path: string): string {
  // Nothing to decode without an escape.
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
