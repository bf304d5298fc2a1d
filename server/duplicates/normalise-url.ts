/** Source URLs as the matcher compares them: the same page however it was linked. */

// Parameters that say where a visitor came from, not which page they asked for.
const TRACKING =
  /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ref|ref_src|source|src|igshid|_ga|yclid)$/i;

// Hosts that hold many events' pages: on them the path names the event, and the host alone
// says nothing.
const SHARED_HOSTS = new Set([
  "meetup.com",
  "lu.ma",
  "luma.com",
  "eventbrite.com",
  "eventbrite.co.uk",
  "eventbrite.de",
  "github.com",
  "github.io",
  "sessionize.com",
  "papercall.io",
  "pretalx.com",
  "ti.to",
  "tito.io",
  "twitter.com",
  "x.com",
  "linkedin.com",
  "facebook.com",
  "youtube.com",
  "google.com",
  "forms.gle",
  "bit.ly",
  "medium.com",
  "eventyay.com",
  "hopin.com",
  "konfhub.com",
  "townscript.com",
  "allevents.in",
  "gdg.community.dev",
  "community.dev",
  "devpost.com",
  "confengine.com",
  "humanitix.com",
  "tickettailor.com",
  "dev.events",
  "linktr.ee",
  "notion.site",
  "wordpress.com",
  "wixsite.com",
  "events.linuxfoundation.org",
]);

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
  return u.hostname.toLowerCase().replace(/^www\d?\./, "").replace(/\.$/, "");
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
  const path = decodeSafe(u.pathname).replace(/\/(index\.html?)?$/i, "").replace(/\/+$/, "");
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

function ownSiteOf(u: URL, host = hostOf(u)): string | null {
  const segments = u.pathname.split("/").filter((s) => s.length > 0);
  if (segments.length > 2 || segments.some((s) => /^\d+$/.test(s) && !/^(19|20)\d\d$/.test(s))) {
    return null;
  }
  // The host and each domain above it ("gdg.community.dev", "community.dev"): each text from a
  // label on that has a dot after it.
  for (let at = 0, dot = host.indexOf("."); dot >= 0; at = dot + 1, dot = host.indexOf(".", at)) {
    if (SHARED_HOSTS.has(host.slice(at))) return null;
  }
  // "2025.pycon.de" and "pycon.de" are one site; a year or an edition number leads the host.
  return host.replace(/^((19|20)\d\d|\d{1,2})\./, "");
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
