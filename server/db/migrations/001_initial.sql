-- Contributors, their API keys, the events they push, and the shared rate-limit buckets.
-- Must stay valid on PostgreSQL 15 and on PGlite (PostgreSQL 18): no pgvector here.

CREATE TABLE contributors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  contributor_id uuid NOT NULL REFERENCES contributors (id),
  name text NOT NULL,
  -- Only the SHA-256 digest of a key is stored; the prefix is shown to operators.
  digest bytea NOT NULL UNIQUE,
  prefix text NOT NULL UNIQUE,
  scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
  rate_limit_per_minute integer NOT NULL DEFAULT 60 CHECK (rate_limit_per_minute > 0),
  trusted boolean NOT NULL DEFAULT false,
  -- The last operator decision on trust (either way); NULL while the key awaits review.
  reviewed_at timestamptz,
  reviewed_by text,
  first_batch_at timestamptz,
  first_batch_event_ids uuid[],
  revoked_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

CREATE INDEX api_keys_contributor_idx ON api_keys (contributor_id);

-- The text a search matches, weighted: title, then labels, then place and organiser, then body.
-- Declared IMMUTABLE (array_to_string is only STABLE in general, but for text[] it is pure) so it
-- can feed a generated column.
CREATE FUNCTION event_search_vector(
  title text, description text, labels text[], event_type text,
  venue_name text, city text, country text, organiser_name text
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(title, '')), 'A')
      || setweight(to_tsvector('english',
           coalesce(array_to_string(labels, ' '), '') || ' ' || coalesce(event_type, '')), 'B')
      || setweight(to_tsvector('english', concat_ws(' ', venue_name, city, country, organiser_name)), 'C')
      || setweight(to_tsvector('english', coalesce(description, '')), 'D')
$$;

CREATE TABLE events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  external_id text NOT NULL,
  platform text NOT NULL,
  contributor_id uuid NOT NULL REFERENCES contributors (id),
  last_key_id uuid NOT NULL REFERENCES api_keys (id),
  source_url text NOT NULL,
  title text NOT NULL,
  description text,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  timezone text,
  venue_name text,
  city text,
  country text,
  latitude double precision,
  longitude double precision,
  is_virtual boolean NOT NULL,
  is_hybrid boolean,
  is_free boolean NOT NULL,
  price_min double precision,
  price_max double precision,
  currency text NOT NULL,
  is_sold_out boolean,
  event_type text,
  categories text[] NOT NULL,
  tags text[] NOT NULL,
  topics text[] NOT NULL,
  organiser_name text,
  organiser_url text,
  cover_image_url text,
  attendee_count integer,
  capacity integer,
  -- SHA-256 of the normalised submitted fields: an identical re-send changes nothing.
  content_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search_vector tsvector GENERATED ALWAYS AS (
    event_search_vector(title, description, topics || tags || categories, event_type,
                        venue_name, city, country, organiser_name)
  ) STORED,
  CONSTRAINT events_external_id_platform_key UNIQUE (external_id, platform)
);

CREATE INDEX events_starts_at_idx ON events (starts_at, id);
CREATE INDEX events_search_vector_idx ON events USING gin (search_vector);
CREATE INDEX events_last_key_idx ON events (last_key_id);
CREATE INDEX events_topics_idx ON events USING gin (topics);

-- Generic cell-rate (GCRA) buckets: `tat` is the theoretical arrival time of the next request.
CREATE TABLE rate_limit_buckets (
  bucket text PRIMARY KEY,
  tat timestamptz NOT NULL,
  allowed boolean NOT NULL
);
