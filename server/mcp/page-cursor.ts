/**
 * The opaque `cursor` of search_events: where the next page starts. A listing pages by the last
 * event's sort key (stable while events are added); a ranked search by position in the ranking.
 */
import { parseDateTime } from "../../shared/zoned-time.ts";
import type { ListCursor } from "../db/event-reads.ts";
import { isUuid } from "../uuid.ts";
import { ToolCallError } from "./tool-results.ts";
import { decodeFairCursor, encodeFairCursor, type FairCursor } from "../events/fair-cursor.ts";

export type PageCursor =
  | { kind: "listing"; after: ListCursor }
  | { kind: "fair"; after: FairCursor }
  | { kind: "ranked"; offset: number };

/** The cursor as text for `next_cursor`. */
export function encodePageCursor(cursor: PageCursor): string {
  const payload = cursor.kind === "listing"
    ? { s: cursor.after.starts_at, i: cursor.after.id }
    : cursor.kind === "fair"
    ? { f: encodeFairCursor(cursor.after) }
    : { o: cursor.offset };
  return btoa(JSON.stringify(payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Reads a cursor this server issued; anything else is a ToolCallError. */
export function decodePageCursor(text: string, maxOffset: number): PageCursor {
  try {
    const payload = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    // A forged cursor must not reach SQL: its values go into ::timestamptz and ::uuid.
    if (
      typeof payload?.s === "string" && typeof payload.i === "string" && isUuid(payload.i) &&
      parseDateTime(payload.s).kind === "instant"
    ) {
      return { kind: "listing", after: { starts_at: payload.s, id: payload.i } };
    }
    const fair = typeof payload?.f === "string" ? decodeFairCursor(payload.f) : null;
    if (fair) return { kind: "fair", after: fair };
    if (Number.isInteger(payload?.o) && payload.o > 0 && payload.o <= maxOffset) {
      return { kind: "ranked", offset: payload.o };
    }
  } catch {
    // Reported below.
  }
  throw new ToolCallError(
    "cursor is not one this server issued: pass next_cursor from the previous result unchanged, " +
      "or leave cursor out for the first page",
  );
}
