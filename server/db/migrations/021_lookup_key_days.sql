-- Each lookup key row holds the days of the listing it names, so that a lookup reads only the
-- listings near the probe's days. Before, the week was hashed into the key and a lookup read every
-- listing holding the key in two or three weeks, then threw away the nine in ten (an event row
-- read each) starting outside the matcher's 60 hours. Now the key is the hash of the title words,
-- site or address alone, and the index is ordered by it and then by day: a lookup is one range
-- scan of the days the probe can reach, and the days it cannot reach are never read.
--
-- A row stands for a stretch of at most a few days of the listing (server/db/match-keys.ts says
-- how many): `day` its first, `last` its last. A one-day listing has one row a key, a long one a
-- row for each stretch, so a lookup reads from a few days before the probe's window and
-- drops, within the index, the stretches that end before it.
DROP TABLE event_lookup_keys;
CREATE TABLE event_lookup_keys (
  hash bigint NOT NULL,
  day integer NOT NULL,
  last integer NOT NULL,
  event_id uuid NOT NULL,
  -- The whole degree of the listing's latitude, 99 without coordinates or online. In the index,
  -- so that a lookup drops far cities' listings without reading their events; in the key, so
  -- that a listing that moves deletes its old rows and inserts its new ones, never the same key.
  lat integer NOT NULL,
  PRIMARY KEY (hash, day, last, event_id, lat)
);

-- A set now also says which days its key rows cover (days since 1970-01-01, UTC), so a changed
-- listing's old rows are found again. The sets stored so far name keys of the old kind: they go,
-- and the rules' version (server/duplicates/rules-version.ts) raised with this change makes a
-- server look at every event again at start, which stores them anew. Links and groups stay
-- meanwhile.
TRUNCATE event_key_sets;
ALTER TABLE event_key_sets ADD COLUMN first_day integer NOT NULL,
  ADD COLUMN last_day integer NOT NULL;

-- A deleted event's key rows go with it, each found by its key and its set's days (LATERAL: one
-- range scan of the index each, never a scan of the whole table) and deleted by row address.
CREATE OR REPLACE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_lookup_keys
  WHERE ctid = ANY(ARRAY(
    SELECT r.ctid
    FROM event_key_sets s
    CROSS JOIN LATERAL unnest(s.keys) AS k(hash)
    CROSS JOIN LATERAL (
      SELECT l.ctid FROM event_lookup_keys l
      WHERE l.hash = k.hash AND l.day BETWEEN s.first_day AND s.last_day
        AND l.event_id = s.event_id
    ) r
    WHERE s.event_id IN (SELECT id FROM gone)));
  DELETE FROM event_key_sets WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
