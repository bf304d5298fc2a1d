/**
 * Whether an event matches a saved search, as SQL on `e` (events) and `s` (saved_searches): the
 * same meaning as GET /api/v1/events with the search's filters and every word of its `q` (the
 * first tier of a ?q= listing; the fallback tiers of most of the words would flood), not collapsed
 * (one notice per real-world event is decided apart, in server/db/notices.ts). Written over the
 * search's columns instead of the listing's parameters so that one statement matches a batch
 * against every saved search at once; tests/alerts/match-agrees.test.ts checks, filter by filter,
 * that it keeps exactly the events the listing keeps.
 */
import type { Fragment, Sql } from "postgres";
import { attendanceCondition } from "./attendance.ts";
import { cfpClosesAfter, cfpClosesBefore, cfpOpenAt, cfpOwnOrLent } from "./cfp-rule.ts";
import { EARTH_RADIUS_KM } from "./near-condition.ts";

/**
 * The listing filters a saved search matches on; a filter the listing gains must be added here
 * (and to `savedSearchMatches`) before it can be saved: the API refuses the others.
 */
export const MATCHED_FILTERS = [
  "city",
  "country",
  "from",
  "to",
  "platform",
  "external_id",
  "is_virtual",
  "attendance",
  "is_free",
  "topic",
  "near",
  "radius_km",
  "cfp",
  "cfp_closes_before",
  "cfp_closes_after",
] as const;

/** On `e` and `s`: the event matches the saved search. */
export function savedSearchMatches(sql: Sql): Fragment {
  return sql`(
    (s.q_match IS NULL OR e.search_vector @@ s.q_match)
    AND coalesce(e.ends_at, e.starts_at) >= coalesce(s.from_at, now())
    AND (s.to_at IS NULL OR e.starts_at <= s.to_at)
    AND (s.city IS NULL OR e.city_key = event_city_key(s.city))
    AND (s.country IS NULL OR e.country_key = event_country_key(s.country))
    AND (s.platform IS NULL OR e.platform = s.platform)
    AND (s.external_id IS NULL OR e.external_id = s.external_id)
    AND (s.is_virtual IS NULL OR e.is_virtual = s.is_virtual)
    AND (s.is_free IS NULL OR e.is_free = s.is_free)
    AND (s.topic IS NULL OR event_labels_lower(e.topics) @> ARRAY[lower(s.topic)])
    AND (s.attendance IS NULL OR CASE s.attendance
      WHEN 'hybrid' THEN ${attendanceCondition(sql, "hybrid")}
      WHEN 'online' THEN ${attendanceCondition(sql, "online")}
      ELSE ${attendanceCondition(sql, "in_person")} END)
    AND (s.near_latitude IS NULL OR ${withinRadius(sql)})
    AND (s.cfp IS NULL OR CASE s.cfp
      WHEN 'open' THEN ${cfpOwnOrLent(sql, cfpOpenAt(sql, sql`now()`))}
      ELSE ${cfpOwnOrLent(sql, sql`e.cfp_url IS NOT NULL`)} END)
    AND (s.cfp_closes_before IS NULL OR ${cfpClosesBefore(sql, sql`s.cfp_closes_before`)})
    AND (s.cfp_closes_after IS NULL OR ${cfpClosesAfter(sql, sql`s.cfp_closes_after`)})
  )`;
}

/** On `e` and `s`: the haversine distance of server/db/near-condition.ts, from the columns. */
function withinRadius(sql: Sql): Fragment {
  const snap = (column: Fragment) => sql`(round(${column} * 1e9) / 1e9)`;
  const lat = snap(sql`e.latitude`);
  const lon = snap(sql`e.longitude`);
  const centreLat = snap(sql`s.near_latitude`);
  const centreLon = snap(sql`s.near_longitude`);
  return sql`(e.latitude IS NOT NULL AND e.longitude IS NOT NULL
    AND 2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      sin(radians(${lat} - ${centreLat}) / 2) ^ 2
      + cos(radians(${centreLat})) * cos(radians(${lat}))
        * sin(radians(${lon} - ${centreLon}) / 2) ^ 2
    ))) <= s.near_radius_km)`;
}

/**
 * The CTEs `heads`, `held` and `keys` of a statement that has the CTE `batch` (its events' id,
 * search_vector, topics, city_key and country_key): `keys` holds each event's keys that a saved
 * search's `anchor` may name (migrations 034 and 041), each once. Those are its words and
 * topics that some active search is anchored on (`heads`), each alone and paired with its city
 * and with its country ("w:rust@c:berlin"); its city and its country; and "*", the anchor of a
 * search with none of these. A search matches only events holding its anchor. Pairing every
 * word, not just those some search is anchored on, gave some 180 keys an event, each looked up
 * among the searches: most of matching's time on the embedded database.
 */
export function anchorKeys(sql: Sql): Fragment {
  return sql`
    heads AS MATERIALIZED (
      SELECT DISTINCT coalesce(word_anchor, 't:' || lower(topic)) AS head FROM saved_searches
      WHERE NOT paused AND (word_anchor IS NOT NULL OR topic IS NOT NULL)
    ), held AS (
      SELECT b.id, b.city_key AS city, b.country_key AS country, h.k AS head
      FROM batch b CROSS JOIN LATERAL (
        SELECT 'w:' || l AS k FROM unnest(tsvector_to_array(b.search_vector)) AS l
        UNION ALL SELECT DISTINCT 't:' || t FROM unnest(event_labels_lower(b.topics)) AS t
      ) AS h
    ), keys AS MATERIALIZED (
      SELECT w.id AS event_id, w.head || p.k AS anchor FROM held w
      CROSS JOIN LATERAL (VALUES (''), ('@c:' || w.city), ('@n:' || w.country)) AS p (k)
      WHERE p.k IS NOT NULL AND w.head IN (SELECT head FROM heads)
      UNION ALL
      SELECT b.id,
        unnest(array_remove(ARRAY['*', 'c:' || b.city_key, 'n:' || b.country_key], NULL))
      FROM batch b
    )`;
}

/** On `e`: what a material change of place compares (venue, city, country, online or not). */
export function placeOf(sql: Sql): Fragment {
  return sql`concat_ws(' | ', e.venue_name, e.city, e.country,
    CASE WHEN e.is_virtual THEN 'online' END)`;
}
