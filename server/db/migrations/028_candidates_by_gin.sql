-- Detection finds its candidates with one statement on both databases (server/db/match-keys.ts):
-- each set also holds its keys stamped with the eight-day spans its days touch (`day_keys`), under
-- a GIN index, so a lookup finds the listings holding a key near its days, not every listing ever
-- holding it. The index takes inserts at once (fastupdate off): with a pending list every lookup
-- read the whole list, 1.7 ms a key under a steady stream of batches. The numbers that let a
-- server's in-memory index learn other servers' sets have no reader left.
DROP INDEX IF EXISTS event_key_sets_written_idx;
ALTER TABLE event_key_sets DROP COLUMN written;
DROP SEQUENCE event_key_set_writes;
ALTER TABLE event_key_sets ADD COLUMN day_keys bigint[] NOT NULL DEFAULT '{}';
CREATE INDEX event_key_sets_day_keys_idx ON event_key_sets USING gin (day_keys)
  WITH (fastupdate = off);

-- Detection treats a new listing as a changed one (its stored set is looked up either way).
ALTER TABLE duplicate_queue DROP COLUMN inserted;
