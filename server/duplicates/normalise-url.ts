/** Source URLs as the matcher compares them: the same page however it was linked. */
import { SHARED_HOSTS } from "../matching-names.ts";

// Parameters that say where a visitor came from, not which page they asked for.
const TRACKING =
  /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ref|ref_src|source|src|igshid|_ga|yclid)$/i;

/**
 * An address's two keys. `url`: one spelling of the page (no scheme, no `www.`, no trailing
 * slash or index page, no fragment, no tracking parameters, the rest of the query sorted).
 * `site`: the site the event has to itself (its host), null when the host is one many events
 * share (Meetup, Luma, GitHub...) or the address is a page deep in a site (more than two path
 * segments, or a numbered one other than a year: one event among many of a calendar). Both null
 * for what is not an http(s) URL.
 */
export function addressKeys(
  url: string | null | undefined,
): { url: string | null; site: string | null } {
  const u = url ? parse(url) : null;
  if (u === null) return { url: null, site: null };
  const host = u.hostname.toLowerCase().replace(/^www\d?\./, "").replace(/\.$/, "");
  return { url: urlKeyOf(u, host), site: ownSiteOf(u, host) };
}

function parse(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

function urlKeyOf(u: URL, host: string): string {
  const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const path = decodeSafe(u.pathname).replace(/\/(index\.html?)?$/i, "").replace(/\/+$/, "");
  const query = params.length > 0 ? `?${new URLSearchParams(params)}` : "";
  return `${host}${path.toLowerCase()}${query}`;
}

function ownSiteOf(u: URL, host: string): string | null {
  const segments = u.pathname.split("/").filter((s) => s !== "");
  if (segments.length > 2 || segments.some((s) => /^\d+$/.test(s) && !/^(19|20)\d\d$/.test(s))) {
    return null;
  }
  // The host and each domain above it ("gdg.community.dev", "community.dev").
  for (let at = 0, dot = host.indexOf("."); dot >= 0; at = dot + 1, dot = host.indexOf(".", at)) {
    if (SHARED_HOSTS.has(host.slice(at))) return null;
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
