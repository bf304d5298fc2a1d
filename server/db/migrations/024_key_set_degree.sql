-- A key set also holds the whole degree of its listing's latitude (99 without coordinates or
-- online), as its key rows do: the embedded database holds its lookup keys in memory, built from
-- the sets alone (server/db/key-index.ts).
ALTER TABLE event_key_sets ADD COLUMN lat integer;

-- The sets stored so far take the degree their rows hold (each row of a set holds the same).
UPDATE event_key_sets s SET lat = coalesce((
  SELECT l.lat FROM event_lookup_keys l
  WHERE l.hash = s.keys[1] AND l.day = s.first_day AND l.event_id = s.event_id
  LIMIT 1), 99);

ALTER TABLE event_key_sets ALTER COLUMN lat SET NOT NULL;
