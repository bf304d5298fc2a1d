/**
 * The cursor of a fair listing: where each stream was left, and the round size the listing
 * began with (so that a page size changed midway cannot renumber the rounds). Opaque to clients:
 * base64url of a small JSON.
 */
import { parseDateTime } from "../../shared/zoned-time.ts";
import type { RoundPosition, StreamPosition } from "../db/fair-listing.ts";
import { isUuid } from "../uuid.ts";

/** Where the next fair page starts. */
export interface FairCursor {
  reviewed?: StreamPosition;
  unreviewed?: RoundPosition;
  perRound: number;
}

/** The cursor as text. */
export function encodeFairCursor(cursor: FairCursor): string {
  const payload = {
    k: cursor.perRound,
    ...(cursor.reviewed ? { r: [cursor.reviewed.starts_at, cursor.reviewed.id] } : {}),
    ...(cursor.unreviewed
      ? { u: [cursor.unreviewed.round, cursor.unreviewed.starts_at, cursor.unreviewed.id] }
      : {}),
  };
  return btoa(JSON.stringify(payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const isInstant = (v: unknown) => typeof v === "string" && parseDateTime(v).kind === "instant";
const isId = (v: unknown) => typeof v === "string" && isUuid(v);

/** Reads a cursor this server issued, or null for anything else. */
export function decodeFairCursor(text: string): FairCursor | null {
  try {
    const p = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    // A forged cursor must not reach SQL: its values go into ::int, ::timestamptz and ::uuid.
    if (!Number.isInteger(p?.k) || p.k < 1 || p.k > 100) return null;
    const cursor: FairCursor = { perRound: p.k };
    if (p.r !== undefined) {
      if (!Array.isArray(p.r) || !isInstant(p.r[0]) || !isId(p.r[1])) return null;
      cursor.reviewed = { starts_at: p.r[0], id: p.r[1] };
    }
    if (p.u !== undefined) {
      if (
        !Array.isArray(p.u) || !Number.isInteger(p.u[0]) || p.u[0] < 0 || p.u[0] > 1e6 ||
        !isInstant(p.u[1]) || !isId(p.u[2])
      ) return null;
      cursor.unreviewed = { round: p.u[0], starts_at: p.u[1], id: p.u[2] };
    }
    return cursor;
  } catch {
    return null;
  }
}
