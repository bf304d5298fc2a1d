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

/**
 * One spelling of a page's address: no scheme, no `www.`, no trailing slash, no fragment, no
 * tracking parameters, the rest of the query sorted. Null for what is not an http(s) URL.
 */
export function urlKey(url: string | null | undefined): string | null {
  const u = url ? parse(url) : null;
  if (!u) return null;
  const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const path = decodeSafe(u.pathname).replace(/\/(index\.html?)?$/i, "").replace(/\/+$/, "");
  const query = params.length > 0 ? `?${new URLSearchParams(params)}` : "";
  return `${hostOf(u)}${path.toLowerCase()}${query}`;
}

/**
 * The site an event has to itself (its host), or null when the host is one many events share
 * (Meetup, Luma, GitHub...) or the URL is not http(s).
 */
export function ownSiteKey(url: string | null | undefined): string | null {
  const u = url ? parse(url) : null;
  if (!u) return null;
  const host = hostOf(u);
  for (const shared of SHARED_HOSTS) {
    if (host === shared || host.endsWith(`.${shared}`)) return null;
  }
  // "2025.pycon.de" and "pycon.de" are one site; a year or an edition number leads the host.
  return host.replace(/^((19|20)\d\d|\d{1,2})\./, "");
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
