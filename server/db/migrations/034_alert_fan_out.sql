-- A new match is one row (docs/alerts.md "Cost of matching"): the batch's pass writes the hit
-- only, marked `notice_pending` when its search has a channel (a webhook, or mail); the delivery
-- worker turns pending hits into notices and deliveries in a transaction of its own, so the mark
-- and the notice change together and nothing is lost or told twice.
ALTER TABLE saved_search_hits ADD COLUMN notice_pending boolean NOT NULL DEFAULT false;

CREATE INDEX saved_search_hits_pending_idx ON saved_search_hits (notified_at)
  WHERE notice_pending;

-- A search that names a place as well as a word or topic is anchored on the pair
-- ("w:rust@c:berlin"), which only events holding both name (server/db/saved-search-match.ts
-- eventAnchors): a batch's candidate pairs are about the matches, not every search of the word.
-- A search with none of these (only dates, say) has the anchor "*" every event holds.
DROP INDEX saved_searches_anchor_idx;
ALTER TABLE saved_searches DROP COLUMN anchor;
ALTER TABLE saved_searches ADD COLUMN anchor text NOT NULL GENERATED ALWAYS AS (
  CASE WHEN word_anchor IS NULL AND topic IS NULL
    THEN coalesce('c:' || lower(city), 'n:' || lower(country), '*')
    ELSE coalesce(word_anchor, 't:' || lower(topic))
      || coalesce('@c:' || lower(city), '@n:' || lower(country), '')
  END) STORED;
CREATE INDEX saved_searches_anchor_idx ON saved_searches (anchor) WHERE NOT paused;

-- Hits go with their search by a trigger instead of a foreign key: the key's check cost a lookup
-- and a row lock of the search per hit written, a third of a broad batch's matching. A hit a
-- match writes for a search deleted meanwhile is read by nothing (every reader joins the search)
-- and goes with its event.
ALTER TABLE saved_search_hits DROP CONSTRAINT saved_search_hits_saved_search_id_fkey;
CREATE FUNCTION delete_saved_search_hits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM saved_search_hits WHERE saved_search_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER saved_search_hits_go_with_search AFTER DELETE ON saved_searches
  FOR EACH ROW EXECUTE FUNCTION delete_saved_search_hits();

-- Events detected and not yet matched against the saved searches: written in the transaction
-- that detects them, taken by the transaction that matches them (server/alerts/percolator.ts),
-- so a stop between the two loses nothing.
CREATE TABLE alert_match_queue (
  event_id uuid PRIMARY KEY,
  queued_at timestamptz NOT NULL DEFAULT now()
);
