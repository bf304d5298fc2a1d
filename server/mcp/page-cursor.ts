/**
 * The opaque `cursor` of search_events: where the next page starts. A listing pages by the last
 * event's sort key (stable while events are added), with the listing cursor of every surface; a
 * ranked search by position in the ranking.
 */
import type { ListCursor } from "../db/event-reads.ts";
import { decodeJsonToken, encodeJsonToken } from "../base64url.ts";
import { encodeListCursor, listCursorOf } from "../events/list-cursor.ts";
import { ToolCallError } from "./tool-results.ts";
import { decodeFairCursor, encodeFairCursor, type FairCursor } from "../events/fair-cursor.ts";

export type PageCursor =
  | { kind: "listing"; after: ListCursor }
  | { kind: "fair"; after: FairCursor }
  | { kind: "ranked"; offset: number };

/** The cursor as text for `next_cursor`. */
export function encodePageCursor(cursor: PageCursor): string {
  if (cursor.kind === "listing") return encodeListCursor(cursor.after);
  return encodeJsonToken(
    cursor.kind === "fair" ? { f: encodeFairCursor(cursor.after) } : { o: cursor.offset },
  );
}

/** Reads a cursor this server issued; anything else is a ToolCallError. */
export function decodePageCursor(text: string, maxOffset: number): PageCursor {
  try {
    const payload = decodeJsonToken(text);
    const after = listCursorOf(payload);
    if (after) return { kind: "listing", after };
    const offset = (payload as { o?: unknown } | null)?.o;
    if (
      typeof offset === "number" && Number.isInteger(offset) && offset > 0 && offset <= maxOffset
    ) {
      return { kind: "ranked", offset };
    }
    const fair = (payload as { f?: unknown } | null)?.f;
    if (typeof fair === "string") {
      const after = decodeFairCursor(fair);
      if (after) return { kind: "fair", after };
    }
  } catch {
    // Reported below.
  }
  throw new ToolCallError(
    "cursor is not one this server issued: pass next_cursor from the previous result unchanged, " +
      "or leave cursor out for the first page",
  );
}
