/** The cities, countries and topics of the events that match a set of filters, with counts. */
import type { Sql } from "postgres";
import { type EventFilters, filterConditions } from "./event-filters.ts";

/** A value and how many matching events have it. */
export interface FacetValue {
  name: string;
  count: number;
}

/** The commonest values of each kind, and how many distinct values each kind has in all. */
export interface EventFacets {
  events: number;
  cities: FacetValue[];
  countries: FacetValue[];
  topics: FacetValue[];
  distinct: { cities: number; countries: number; topics: number };
}

type Kind = "city" | "country" | "topic" | "events";
type FacetRow = { kind: Kind; name: string; n: number; kinds: number };

/**
 * The `limit` commonest cities, countries and topics among matching events, most events first,
 * then by name; values longer than `maxValueLength` are left out. Values the filters treat as one
 * are one value, spelt the way most events spell it: places however spelt ("New York, NY" and
 * "NYC", "USA" and "U.S.A.": migration 041).
 */
export async function eventFacets(
  sql: Sql,
  filters: EventFilters,
  options: { limit: number; maxValueLength: number },
): Promise<EventFacets> {
  const { limit, maxValueLength: max } = options;
  const rows = await sql<FacetRow[]>`
    WITH matching AS MATERIALIZED (
      SELECT e.city, e.city_key, e.country, e.country_key, e.topics FROM events e
      WHERE ${filterConditions(sql, filters)}
    ), grouped AS (
      SELECT 'city' AS kind, mode() WITHIN GROUP (ORDER BY city) AS name, count(*)::int AS n
      FROM matching WHERE length(city) <= ${max} GROUP BY city_key
      UNION ALL
      SELECT 'country', mode() WITHIN GROUP (ORDER BY country), count(*)::int
      FROM matching WHERE length(country) <= ${max} GROUP BY country_key
      UNION ALL
      SELECT 'topic', mode() WITHIN GROUP (ORDER BY t), count(*)::int
      FROM matching, unnest(matching.topics) t WHERE length(t) <= ${max} GROUP BY lower(t)
    ), ranked AS (
      SELECT kind, name, n,
             row_number() OVER (PARTITION BY kind ORDER BY n DESC, lower(name), name) AS r,
             count(*) OVER (PARTITION BY kind)::int AS kinds
      FROM grouped
    )
    SELECT kind, name, n, kinds, r FROM ranked WHERE r <= ${limit}
    UNION ALL
    SELECT 'events', '', count(*)::int, 1, 1 FROM matching
    ORDER BY kind, r`;
  const of = (kind: Kind) => rows.filter((r) => r.kind === kind);
  const values = (kind: Kind) => of(kind).map((r) => ({ name: r.name, count: r.n }));
  return {
    events: of("events")[0]?.n ?? 0,
    cities: values("city"),
    countries: values("country"),
    topics: values("topic"),
    distinct: {
      cities: of("city")[0]?.kinds ?? 0,
      countries: of("country")[0]?.kinds ?? 0,
      topics: of("topic")[0]?.kinds ?? 0,
    },
  };
}
