-- Each event's lookup keys in one row, beside a fingerprint of the fields the matcher reads
-- (server/duplicates/lookup-keys.ts). Detection reads an event's keys here by primary key and
-- deletes the ones it replaces from event_lookup_keys by that table's own primary key, so the
-- index on event_lookup_keys (event_id) goes: it was about half the cost of writing the keys (a
-- second B-tree with a random leaf per key row). The fingerprint was a key row of its own.
CREATE TABLE event_key_sets (
  event_id uuid PRIMARY KEY,
  fingerprint bigint NOT NULL,
  keys bigint[] NOT NULL
);

-- The keys stored so far had no set. Those of every event are dropped, and the rules' version
-- (server/duplicates/rules-version.ts) raised with this change makes a server look at every event
-- again at start, which stores them anew. Links and groups stay meanwhile.
TRUNCATE event_lookup_keys;
DROP INDEX event_lookup_keys_event_idx;

-- A deleted event's keys go with it, found through its set.
CREATE OR REPLACE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_lookup_keys l
  USING (SELECT s.event_id, unnest(s.keys) AS hash
         FROM event_key_sets s WHERE s.event_id IN (SELECT id FROM gone)) x
  WHERE l.hash = x.hash AND l.event_id = x.event_id;
  DELETE FROM event_key_sets WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
