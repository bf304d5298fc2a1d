-- Layout and indexes measured in docs/benchmarks.md.
--
-- The tsvector stays in the row. Stored out of line (it often was: about 900 bytes beside a long
-- description), every text match read in start order and every ranked candidate cost a TOAST
-- lookup; in the row, PGlite spent a third less CPU per text search. The description, read only
-- for whole events, goes out of line instead. Rows written before this keep their layout until
-- they are next written (or `VACUUM FULL events` rewrites them all).
ALTER TABLE events ALTER COLUMN search_vector SET STORAGE MAIN;

-- Filters that keep few events must find them without reading every row: semantic search under
-- strict filters scans the rows they keep (server/db/vector-matches.ts).
CREATE INDEX events_city_idx ON events (lower(city));
CREATE INDEX events_country_idx ON events (lower(country));

-- Labels lower-cased, for the case-insensitive `topic` filter. The index on `topics` as written
-- could not serve it.
CREATE FUNCTION event_labels_lower(labels text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(lower(l)), '{}') FROM unnest(labels) AS l
$$;
DROP INDEX events_topics_idx;
CREATE INDEX events_topics_lower_idx ON events USING gin (event_labels_lower(topics));
