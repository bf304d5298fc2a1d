-- Reading events in start order without walking the past (server/db/start-order.ts).
--
-- "Not over at X" (coalesce(ends_at, starts_at) >= X) is read as two sets that indexes find:
-- events starting at X or later, from the start index; and events under way at X, from this
-- GiST index of the span of every event that has a duration (an event without one is over when
-- it starts). Before, a listing from X walked every event that started before X and skipped it.
CREATE INDEX events_span_idx ON events USING gist (tstzrange(starts_at, ends_at, '[]'))
  WHERE ends_at > starts_at;

-- The city and country filters, in start order: a search or listing in one city reads that
-- city's events soonest first instead of every event soonest first (eight times as many rows
-- for one city in eight), or all of the city's events sorted. They still serve the plain filter.
DROP INDEX events_city_idx;
CREATE INDEX events_city_idx ON events (lower(city), starts_at, id);
DROP INDEX events_country_idx;
CREATE INDEX events_country_idx ON events (lower(country), starts_at, id);
