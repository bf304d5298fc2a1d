-- Detection finds its candidates with one statement on both databases: a GIN index on each
-- event's lookup keys answers `keys @> ARRAY[key]`, and the days and latitude degree beside them
-- bound the rows read (server/db/match-keys.ts). The numbers that let a server's in-memory index
-- learn other servers' sets have no reader left.
DROP INDEX IF EXISTS event_key_sets_written_idx;
ALTER TABLE event_key_sets DROP COLUMN written;
DROP SEQUENCE event_key_set_writes;
CREATE INDEX event_key_sets_keys_idx ON event_key_sets USING gin (keys);

-- Detection treats a new listing as a changed one (its stored set is looked up either way).
ALTER TABLE duplicate_queue DROP COLUMN inserted;
