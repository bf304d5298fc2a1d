/**
 * The rows a listing's key set stands for: each key over each stretch of the listing's days, with
 * the whole degree of its latitude, as the key index holds them in memory (key-index.ts).
 */

// The key rows hold the whole degree of their listing's latitude, so that a lookup drops the
// listings of far cities within the index (over half the rows a lookup found on the benchmark's
// realistic mix) instead of reading their events. A listing without coordinates, or online, holds
// NO_DEGREE, outside every band (event_key_sets' column `lat` is never null).
export const NO_DEGREE = 99;

/** The degree a listing's rows hold: NO_DEGREE without coordinates or online. */
export const degreeOf = (latitude: number | null) =>
  latitude === null ? NO_DEGREE : Math.floor(latitude);

// A key row stands for at most this many days of its listing: a one-day (or up to four-day)
// listing has one row a key, a longer one a row for each stretch. A lookup reads the rows
// starting from this many days, less one, before the days it wants, and the index itself drops
// those ending before them. Changing it changes only what the indexes hold, built again at each
// start.
export const STRETCH_DAYS = 4;
// A set's days span at most 17 (storedDays in server/duplicates/lookup-keys.ts): five stretches.
export const MAX_STRETCHES = 5;

/** The stretches of a set's days, each [first day, last day], both included. */
export function stretchesOf(firstDay: number, lastDay: number): [number, number][] {
  if (lastDay - firstDay >= STRETCH_DAYS * MAX_STRETCHES) {
    throw new Error(`A key set spans ${lastDay - firstDay + 1} days, more than its rows may`);
  }
  const stretches: [number, number][] = [];
  for (let day = firstDay; day <= lastDay; day += STRETCH_DAYS) {
    stretches.push([day, Math.min(day + STRETCH_DAYS - 1, lastDay)]);
  }
  return stretches;
}

/** The days and latitude band a lookup reaches. */
export interface LookupReach {
  /** Days since 1970-01-01 (UTC), both included. */
  first: number;
  last: number;
  /** The band of latitudes, null when none applies (the probe has no coordinates, or is online). */
  latitudes: [number, number] | null;
}

/**
 * Whether a row of `degree` over [day, last] is found by a lookup reaching `reach`: starting at
 * most STRETCH_DAYS - 1 days before the reach and ending within or after it, and in its latitude
 * band (or of no degree).
 */
export function rowInReach(row: { day: number; last: number; degree: number }, reach: LookupReach) {
  if (row.day < reach.first - (STRETCH_DAYS - 1) || row.day > reach.last) return false;
  if (row.last < reach.first) return false;
  const band = reach.latitudes;
  return band === null || row.degree === NO_DEGREE ||
    (row.degree >= Math.floor(band[0]) && row.degree <= Math.floor(band[1]));
}
