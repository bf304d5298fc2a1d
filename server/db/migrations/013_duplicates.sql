-- Duplicates: several listings of one real-world event (issue 17). A view over the events,
-- never a change to them: these tables are the server's, written by detection
-- (server/duplicates/) and by operators, and go with an event when it is deleted.

-- Each event's normalised title words, address and place, as detection last computed them, so
-- candidates are found through indexes: the same words, the same address or the same place,
-- starting within a few days.
CREATE TABLE event_match_keys (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  title_words text[] NOT NULL,
  url_key text,
  place_key text
);
CREATE INDEX event_match_keys_words_idx ON event_match_keys USING gin (title_words);
CREATE INDEX event_match_keys_starts_idx ON event_match_keys (starts_at);
CREATE INDEX event_match_keys_url_idx ON event_match_keys (url_key, starts_at)
  WHERE url_key IS NOT NULL;
CREATE INDEX event_match_keys_place_idx ON event_match_keys (place_key, starts_at)
  WHERE place_key IS NOT NULL;

-- Pairs of listings: found by detection, or decided by an operator ("same" joins them, "not_same"
-- keeps them apart). Detection replaces only its own links; an operator's decision stays.
CREATE TABLE event_links (
  a uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  b uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('detected', 'same', 'not_same')),
  score real NOT NULL DEFAULT 0,
  decided_by text,
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (a, b),
  CHECK (a < b)
);
CREATE INDEX event_links_b_idx ON event_links (b);

-- The groups the links form: every member of a group of two or more, with its group named by
-- the canonical member. An event in no row is in no group. A collapsed listing keeps events
-- that have no row here with canonical = false (an index lookup per event).
CREATE TABLE event_group_members (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  group_id uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  canonical boolean NOT NULL
);
CREATE INDEX event_group_members_group_idx ON event_group_members (group_id);
CREATE UNIQUE INDEX event_group_members_hidden_idx ON event_group_members (event_id)
  WHERE NOT canonical;
