-- Duplicates: several listings of one real-world event (issue 17). A view over the events,
-- never a change to them: these tables are the server's, written by detection
-- (server/duplicates/) and by operators, and go with an event when it is deleted.

-- Each event's lookup keys as detection last computed them (server/duplicates/lookup-keys.ts):
-- pairs of its title's naming words, its own site and its address, each with a day it takes
-- place on. A listing's candidates are the events sharing a key, found in this GIN index
-- without reading the events of a busy day one by one.
CREATE TABLE event_match_keys (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  lookup text[] NOT NULL
);
CREATE INDEX event_match_keys_lookup_idx ON event_match_keys USING gin (lookup);

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
-- the canonical member. An event in no row is in no group. A collapsed listing looks up each
-- event it shows in the partial index of the members that are not canonical.
CREATE TABLE event_group_members (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  group_id uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  canonical boolean NOT NULL
);
CREATE INDEX event_group_members_group_idx ON event_group_members (group_id);
CREATE UNIQUE INDEX event_group_members_hidden_idx ON event_group_members (event_id)
  WHERE NOT canonical;
