-- Every server holds the lookup keys in memory now, PostgreSQL's as the embedded database's
-- (server/db/key-index.ts), built from the key sets: event_lookup_keys is read no more. On
-- PostgreSQL, writing a batch's 650 key rows and looking up its keys there took 20 ms a batch, a
-- third of ingestion's throughput on two cores.
DROP TABLE event_lookup_keys;

-- Several servers may share a PostgreSQL database, and each must learn the sets the others write.
-- Each write of a set takes the next number of this sequence; sets are written only under the
-- duplicates lock, so a server holding it reads every set written since the last number it knows
-- (KeyIndexClient.catchUp in server/db/key-index-thread.ts).
CREATE SEQUENCE event_key_set_writes;
ALTER TABLE event_key_sets
  ADD COLUMN written bigint NOT NULL DEFAULT nextval('event_key_set_writes');
CREATE INDEX event_key_sets_written_idx ON event_key_sets (written);

-- A deleted event's set goes with it. (A server's index holds it until pruned; its hits find no
-- event and link nothing.)
CREATE OR REPLACE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_key_sets WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
