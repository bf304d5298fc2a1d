-- Bookkeeping of AI search. Plain SQL, valid without pgvector: the vector column itself is added
-- at run time by server/db/vector-store.ts, only where `CREATE EXTENSION vector` succeeds, so a
-- PostgreSQL without pgvector still runs every other feature.

-- At most one vector per event: the one made from `content_hash` (events.content_hash at the time)
-- by `model`. It is current when both still match; otherwise the worker replaces it.
CREATE TABLE event_embeddings (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  model text NOT NULL,
  content_hash text NOT NULL,
  -- SHA-256 of the embedded text: an edit that leaves the text alone keeps the vector.
  text_hash text NOT NULL,
  embedded_at timestamptz NOT NULL DEFAULT now()
);

-- The model whose vectors search compares against; one row, written when the store is prepared.
CREATE TABLE embedding_model (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  model text NOT NULL,
  dimensions integer NOT NULL CHECK (dimensions > 0),
  changed_at timestamptz NOT NULL DEFAULT now()
);

-- Work in progress, not a queue: what needs a vector is derived from the data. A row says a
-- worker is embedding the event until `claimed_until`, or, after a failure, that nobody should
-- try again before then. An expired row is free to claim, so a crashed worker loses nothing.
CREATE TABLE embedding_claims (
  event_id uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  worker text NOT NULL,
  claimed_until timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
