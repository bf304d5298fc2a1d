-- Which version of the duplicate rules (normalisers, lookup keys, matcher) wrote the stored lookup
-- keys and detected links, and how far a re-detection under newer rules has come. Keys written
-- by older rules may miss candidates the newer ones find, so a server that knows newer rules
-- walks every event once again (server/duplicates/rules-version.ts), in id order, resuming after
-- `redetected_through` when it was stopped part-way. Version 0: rules from before this table.
CREATE TABLE duplicate_rules (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version integer NOT NULL,
  redetected_through uuid
);
INSERT INTO duplicate_rules (version) VALUES (0);

-- A deleted event's lookup keys go with it. Not a foreign key: checking one for each key row cost
-- more than the rest of a write; one statement per delete, through the index on event_id, costs
-- only the deletes. The keys of events deleted before this trigger go once, here.
CREATE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_lookup_keys WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
CREATE TRIGGER events_lookup_keys_gone AFTER DELETE ON events
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION delete_lookup_keys_of_gone_events();
DELETE FROM event_lookup_keys k WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = k.event_id);
