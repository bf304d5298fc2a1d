/** Turns the zone names found in calendars (IANA, Windows, vendor-prefixed) into IANA names. */
import { isIanaTimeZone } from "../../shared/zoned-time.ts";
import { displayKey, WINDOWS_DISPLAY_NAMES, WINDOWS_ZONE_IDS } from "./windows-zones.ts";

const cache = new Map<string, string | null>();

/** The canonical spelling the runtime uses, so that aliases such as US/Central read the same. */
function canonical(zone: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return zone;
  }
}

function resolveUncached(tzid: string): string | null {
  const name = tzid.trim().replace(/^"(.*)"$/, "$1").trim();
  if (name === "") return null;
  if (/^(utc|gmt|z)$/i.test(name)) return "UTC";
  if (isIanaTimeZone(name)) return canonical(name);
  // Vendor prefixes such as /mozilla.org/20050126_1/Europe/Berlin or
  // /softwarestudio.org/Olson_20011030_5/America/New_York end in the IANA name.
  const tail = /([A-Za-z_]+\/[A-Za-z0-9_+\-]+(?:\/[A-Za-z0-9_+\-]+)?)$/.exec(name);
  if (tail && isIanaTimeZone(tail[1])) return canonical(tail[1]);
  const windows = WINDOWS_ZONE_IDS[name.toLowerCase()] ?? WINDOWS_DISPLAY_NAMES[displayKey(name)];
  if (windows && isIanaTimeZone(windows)) return canonical(windows);
  return null;
}

/** The IANA zone a TZID or X-WR-TIMEZONE value means, or null when it names none we know. */
export function resolveTimeZone(tzid: string): string | null {
  let zone = cache.get(tzid);
  if (zone === undefined) {
    zone = resolveUncached(tzid);
    cache.set(tzid, zone);
  }
  return zone;
}
