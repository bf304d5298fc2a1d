-- What the saved searches were told of, one row per event instead of one per match (docs/alerts.md
-- "Cost of matching"): a broad batch matches about 6,500 pairs, and a row with its index entries
-- each cost a pass as much as the matching; the ids of the searches told of an event are one array,
-- and its values a change or removal compares are stored once. Per pair stays only what some
-- matches need: a notice to make (searches with a channel) and a CFP reminder told.
CREATE TABLE alert_hits (
  event_id uuid PRIMARY KEY,
  -- The saved searches told of this event (a new match appends; a search deleted is removed).
  saved_search_ids uuid[] NOT NULL,
  -- What the event was when told of: what a material change compares, what a removal tells.
  starts_at timestamptz NOT NULL,
  place text NOT NULL,
  title text NOT NULL,
  source_url text NOT NULL
);

-- A search's feed lists its events through this (`@>`); the pending list takes a batch's ids in
-- one append, merged into the index later in bulk.
CREATE INDEX alert_hits_searches_idx ON alert_hits USING gin (saved_search_ids);

-- New matches of searches with a channel (a webhook, or mail) whose notice the delivery worker is
-- still to make (server/db/notices.ts fanOutNewHits). No foreign keys: see the trigger below.
CREATE TABLE alert_pending_new (
  event_id uuid NOT NULL,
  saved_search_id uuid NOT NULL,
  matched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, saved_search_id)
);

CREATE INDEX alert_pending_new_matched_idx ON alert_pending_new (matched_at);

-- The CFP reminders told, once per search and event (server/db/cfp-reminders.ts).
CREATE TABLE alert_cfp_reminded (
  event_id uuid NOT NULL,
  saved_search_id uuid NOT NULL,
  reminded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, saved_search_id)
);

INSERT INTO alert_hits (event_id, saved_search_ids, starts_at, place, title, source_url)
SELECT event_id, array_agg(saved_search_id), max(starts_at), max(place), max(title),
  max(source_url)
FROM saved_search_hits GROUP BY event_id;
INSERT INTO alert_pending_new (event_id, saved_search_id, matched_at)
SELECT event_id, saved_search_id, notified_at FROM saved_search_hits WHERE notice_pending;
INSERT INTO alert_cfp_reminded (event_id, saved_search_id, reminded_at)
SELECT event_id, saved_search_id, cfp_reminded_at FROM saved_search_hits
WHERE cfp_reminded_at IS NOT NULL;

DROP TRIGGER saved_search_hits_go_with_search ON saved_searches;
DROP FUNCTION delete_saved_search_hits();
DROP TABLE saved_search_hits;

-- What was told goes with its search by a trigger instead of foreign keys: a key's check costs a
-- lookup and a row lock of the search per row written.
CREATE FUNCTION forget_saved_search_hits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM alert_hits WHERE saved_search_ids = ARRAY[OLD.id];
  UPDATE alert_hits SET saved_search_ids = array_remove(saved_search_ids, OLD.id)
  WHERE saved_search_ids @> ARRAY[OLD.id];
  DELETE FROM alert_pending_new WHERE saved_search_id = OLD.id;
  DELETE FROM alert_cfp_reminded WHERE saved_search_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER alert_hits_go_with_search AFTER DELETE ON saved_searches
  FOR EACH ROW EXECUTE FUNCTION forget_saved_search_hits();
