/**
 * The cursor of an event listing (REST's and the site's `cursor`, MCP's listing pages): where the
 * next page starts, as the last event's sort key. One format on every surface.
 */
import { parseDateTime } from "../../shared/zoned-time.ts";
import type { ListCursor } from "../db/event-reads.ts";
import { decodeJsonToken, encodeJsonToken } from "../base64url.ts";
import { isUuid } from "../uuid.ts";

/** The cursor as the opaque text of `next_cursor`. */
export function encodeListCursor(cursor: ListCursor): string {
  return encodeJsonToken(cursor);
}

/** The cursor in `value` (a decoded token), or null when it is not one this service issued. */
export function listCursorOf(value: unknown): ListCursor | null {
  const c = value as Partial<Record<keyof ListCursor, unknown>> | null;
  // A forged cursor must not reach SQL: its values go into ::timestamptz, ::uuid and ::real.
  if (
    typeof c?.starts_at === "string" && typeof c.id === "string" &&
    (c.tier === undefined ||
      (Number.isInteger(c.tier) && Number(c.tier) >= 0 && Number(c.tier) < 100)) &&
    parseDateTime(c.starts_at).kind === "instant" && isUuid(c.id) &&
    (c.cfp_closes_at === undefined || c.cfp_closes_at === "infinity" ||
      (typeof c.cfp_closes_at === "string" && parseDateTime(c.cfp_closes_at).kind === "instant"))
  ) {
    return {
      starts_at: c.starts_at,
      id: c.id,
      tier: c.tier as number | undefined,
      ...(c.cfp_closes_at === undefined ? {} : { cfp_closes_at: c.cfp_closes_at as string }),
    };
  }
  return null;
}

/** The cursor a `next_cursor` text stands for, or null when it is not one this service issued. */
export function decodeListCursor(text: string): ListCursor | null {
  try {
    return listCursorOf(decodeJsonToken(text));
  } catch {
    return null;
  }
}
