/**
 * The `near` filter: events whose coordinates lie within a great-circle radius of a point. A
 * latitude/longitude box that holds the whole circle lets the btree index on (latitude,
 * longitude) narrow the rows; the exact haversine distance then decides. The box is split at the
 * antimeridian and spans every longitude when the circle holds a pole.
 */
import type { Fragment, Sql } from "postgres";

/** A point and a radius, already validated (latitude -90..90, longitude -180..180, radius > 0). */
export interface NearFilter {
  latitude: number;
  longitude: number;
  radius_km: number;
}

/** Mean Earth radius (IUGG), in kilometres. */
export const EARTH_RADIUS_KM = 6371.0088;

/** Latitudes and longitude ranges (degrees) that hold every point within the radius. */
export interface BoundingBox {
  minLatitude: number;
  maxLatitude: number;
  /** One range, two when the box crosses the antimeridian; empty means every longitude. */
  longitudeRanges: [number, number][];
}

// Rounding in the trigonometry must never leave a point on the circle outside the box.
const SLACK_DEGREES = 1e-9;

const toDegrees = (radians: number) => (radians * 180) / Math.PI;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** The smallest latitude/longitude box around the circle (after Matuschek's method). */
export function boundingBox(near: NearFilter): BoundingBox {
  const angle = near.radius_km / EARTH_RADIUS_KM;
  const minLatitude = near.latitude - toDegrees(angle) - SLACK_DEGREES;
  const maxLatitude = near.latitude + toDegrees(angle) + SLACK_DEGREES;
  if (minLatitude <= -90 || maxLatitude >= 90 || angle >= Math.PI / 2) {
    // The circle holds a pole: every longitude, from the far edge to the pole.
    return {
      minLatitude: Math.max(-90, minLatitude),
      maxLatitude: Math.min(90, maxLatitude),
      longitudeRanges: [],
    };
  }
  const spread = toDegrees(Math.asin(Math.sin(angle) / Math.cos(toRadians(near.latitude)))) +
    SLACK_DEGREES;
  const west = near.longitude - spread;
  const east = near.longitude + spread;
  let longitudeRanges: [number, number][];
  if (west < -180) longitudeRanges = [[west + 360, 180], [-180, east]];
  else if (east > 180) longitudeRanges = [[west, 180], [-180, east - 360]];
  else longitudeRanges = [[west, east]];
  return { minLatitude, maxLatitude, longitudeRanges };
}

/** Great-circle distance in kilometres between two points (haversine). */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The SQL condition on `events e`: within the box (indexed), then within the radius (exact). */
export function nearCondition(sql: Sql, near: NearFilter): Fragment {
  const box = boundingBox(near);
  const longitudes = box.longitudeRanges.length === 0
    ? sql`e.longitude IS NOT NULL`
    : box.longitudeRanges
      .map(([west, east]) => sql`e.longitude BETWEEN ${west}::float8 AND ${east}::float8`)
      .reduce((acc, part) => sql`(${acc} OR ${part})`);
  // The same haversine as distanceKm; sin² of half the longitude difference has a period of
  // 360°, so points across the antimeridian need no special case here. PostgreSQL raises an
  // error when a product of non-zero floats underflows to zero, so stored coordinates are first
  // snapped to 1e-9 degrees (0.1 mm): no vanishingly small value ever reaches a product.
  const latitude = sql`(round(e.latitude * 1e9) / 1e9)`;
  const longitude = sql`(round(e.longitude * 1e9) / 1e9)`;
  return sql`(
    e.latitude BETWEEN ${box.minLatitude}::float8 AND ${box.maxLatitude}::float8
    AND ${longitudes}
    AND 2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      sin(radians(${latitude} - ${snap(near.latitude)}::float8) / 2) ^ 2
      + cos(radians(${snap(near.latitude)}::float8)) * cos(radians(${latitude}))
        * sin(radians(${longitude} - ${snap(near.longitude)}::float8) / 2) ^ 2
    ))) <= ${near.radius_km}::float8
  )`;
}

const snap = (degrees: number) => Math.round(degrees * 1e9) / 1e9;
