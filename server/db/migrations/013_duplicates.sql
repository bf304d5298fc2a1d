-- Duplicates: several listings of one real-world event (issue 17). A view over the events,
-- never a change to them: these tables are the server's, written by detection
-- (server/duplicates/) and by operators, and go with an event when it is deleted.

-- Each event's lookup keys as detection last computed them (server/duplicates/lookup-keys.ts):
-- pairs of its title's naming words, its first word, its own site and its address, each with a
-- week it takes place in, hashed to 53 bits (a collision only adds a candidate). A listing's
-- candidates are the events sharing a key: one join on this primary key for a whole batch.
-- No foreign key: checking one per key row cost more than the rest of a write, and a deleted
-- event's rows find nothing (candidates are joined to the events).
CREATE TABLE event_lookup_keys (
  hash bigint NOT NULL,
  event_id uuid NOT NULL,
  PRIMARY KEY (hash, event_id)
);
CREATE INDEX event_lookup_keys_event_idx ON event_lookup_keys (event_id);

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
