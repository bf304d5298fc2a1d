/**
 * The `near=lat,lon` and `radius_km` query parameters of the list and search endpoints: events
 * with coordinates within a great-circle radius (server/db/near-condition.ts).
 */
import { z } from "zod";
import type { NearFilter } from "../db/near-condition.ts";

/** The default and largest radius, in kilometres. */
export const DEFAULT_RADIUS_KM = 50;
export const MAX_RADIUS_KM = 1000;

/** A decimal number as the parameters take it (spaces around it allowed). */
const DECIMAL_SOURCE = String.raw`\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*`;
const DECIMAL = new RegExp(`^${DECIMAL_SOURCE}$`);
/** The form of `near`, as documented: two decimals joined by a comma. */
const NEAR_PATTERN = `^${DECIMAL_SOURCE},${DECIMAL_SOURCE}$`;

type Point = { latitude: number; longitude: number };

const NEAR_FORM = "near must be latitude,longitude in decimal degrees, such as near=52.52,13.405";

/** The parameters, for spreading into a query schema's shape. */
export const nearQueryShape = {
  near: z.string().optional().transform((v, ctx): Point | undefined => {
    if (v === undefined) return undefined;
    const parts = v.split(",");
    if (parts.length !== 2 || !parts.every((p) => DECIMAL.test(p))) {
      ctx.addIssue({ code: "custom", message: NEAR_FORM });
      return z.NEVER;
    }
    const [latitude, longitude] = parts.map(Number);
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      ctx.addIssue({
        code: "custom",
        message: "near: latitude must be from -90 to 90 and longitude from -180 to 180",
      });
      return z.NEVER;
    }
    return { latitude, longitude };
  }).meta({
    type: "string",
    pattern: NEAR_PATTERN,
    example: "38.72,-9.14",
    description: "Only events with coordinates within `radius_km` of this point, given as " +
      "latitude,longitude in decimal degrees (great-circle distance; correct across the " +
      "antimeridian and at the poles). Events without coordinates never match.",
  }),
  radius_km: z.string().optional().transform((v, ctx) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!DECIMAL.test(v) || !(n > 0) || n > MAX_RADIUS_KM) {
      ctx.addIssue({
        code: "custom",
        message: `radius_km must be a number of kilometres above 0, at most ${MAX_RADIUS_KM}`,
      });
      return z.NEVER;
    }
    return n;
  }).meta({
    type: "number",
    exclusiveMinimum: 0,
    maximum: MAX_RADIUS_KM,
    default: DEFAULT_RADIUS_KM,
    description: "Radius of `near`, in kilometres.",
  }),
};

/**
 * For a query schema's superRefine: a radius without a point is a mistake, not a no-op. (Pages,
 * lenient by design, leave this out: nearFilterOf ignores a lone radius.)
 */
export function radiusNeedsNear(
  q: { near?: Point; radius_km?: number },
  ctx: z.RefinementCtx,
): void {
  if (q.radius_km !== undefined && q.near === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["radius_km"],
      message: "radius_km needs near=latitude,longitude (such as near=52.52,13.405)",
    });
  }
}

/** The filter the parsed parameters ask for, if any. */
export function nearFilterOf(
  q: { near?: Point; radius_km?: number },
): NearFilter | undefined {
  if (q.near === undefined) return undefined;
  return { ...q.near, radius_km: q.radius_km ?? DEFAULT_RADIUS_KM };
}
