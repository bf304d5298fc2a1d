/**
 * GET /alerts/{token}.ics and /alerts/{token}.atom: a saved search's private feeds, the events it
 * has told of that are not yet over. The token is the capability (256 random bits); revoking the
 * feeds (PATCH revoke_feeds) changes it and the old URLs answer 404.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { getEventsByIds } from "../../db/event-reads.ts";
import { savedSearchByFeedToken, toldOfEventIds } from "../../db/saved-searches.ts";
import { AppError } from "../../errors.ts";
import { linkBase } from "../../alerts/saved-search-rules.ts";
import { siteOrigin } from "../../request-origin.ts";
import { calendarDocument, eventLines } from "../feeds/ics-writer.ts";
import { cfpEntry, cfpVevent } from "../feeds/cfp-feed-writers.ts";
import { cfpRemindedEventIds } from "../../db/cfp-reminders.ts";
import { atomFeedOf } from "../feeds/atom-writer.ts";

const FEED_LIMIT = 100;
const TOKEN = /^([A-Za-z0-9_-]{43})\.(ics|atom)$/;

/** Either feed of the saved search the token names, or 404. */
export async function alertFeedRoute(c: Context<AppEnv>): Promise<Response> {
  const match = TOKEN.exec(c.req.param("file") ?? "");
  const deps = c.get("deps");
  const search = match ? await savedSearchByFeedToken(deps.db.sql, match[1]) : null;
  if (!match || search === null) {
    throw new AppError("not_found", "No feed is at this address (it may have been revoked).");
  }
  const ids = await toldOfEventIds(deps.db.sql, search.id, FEED_LIMIT);
  const events = (await getEventsByIds(deps.db.sql, ids))
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id));
  // An event whose CFP reminder was told carries its CFP entry too (open, with a deadline).
  const reminded = await cfpRemindedEventIds(deps.db.sql, search.id, ids);
  const closing = events.filter((e): e is typeof e & { cfp_closes_at: string } =>
    reminded.has(e.id) && e.cfp_status === "open" && e.cfp_closes_at !== null
  );
  const origin = linkBase(deps, siteOrigin(c));
  const title = `Alert: ${search.name}`;
  // Private: no shared cache may keep it.
  const headers = { "Cache-Control": "private, max-age=60", "X-Robots-Tag": "noindex" };
  if (match[2] === "ics") {
    const vevents = [
      ...events.map((e) => eventLines(e, origin)),
      ...closing.map((e) => cfpVevent(e, origin)),
    ];
    return c.body(calendarDocument(vevents, title), 200, {
      ...headers,
      "Content-Type": "text/calendar; charset=utf-8",
    });
  }
  const path = `/alerts/${match[1]}.atom`;
  const extraEntries = closing.map((e) => cfpEntry(e, origin));
  const feed = atomFeedOf(events, {
    origin,
    title,
    selfPath: path,
    pagePath: "/alerts",
    extraEntries,
  });
  return c.body(feed, 200, {
    ...headers,
    "Content-Type": "application/atom+xml; charset=utf-8",
  });
}
