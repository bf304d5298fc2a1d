-- Saved searches that notify (docs/alerts.md): what a contributor's account asked to be told of,
-- which events each has told of (hits), the notices decided, and their deliveries.

-- When the account's address was confirmed by a mailed link; mail goes only to such addresses.
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;

-- Links mailed to confirm an address: only the SHA-256 of the token is kept.
CREATE TABLE email_confirmations (
  token_digest bytea PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE INDEX email_confirmations_account_idx ON email_confirmations (account_id);

CREATE TABLE saved_searches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  contributor_id uuid NOT NULL REFERENCES contributors (id) ON DELETE CASCADE,
  name text NOT NULL,
  q text,
  -- The filters as the API took them (JSON values named as GET /api/v1/events's parameters).
  filters jsonb NOT NULL DEFAULT '{}',
  -- What matching reads (server/db/saved-search-match.ts), resolved once at save: every word of
  -- `q` (the first tier of a ?q= listing), and each filter in its own column.
  q_match tsquery,
  -- The longest word of `q_match` (longer words are rarer), "w:" + lexeme.
  word_anchor text,
  city text,
  country text,
  from_at timestamptz,
  to_at timestamptz,
  platform text,
  external_id text,
  is_virtual boolean,
  is_free boolean,
  topic text,
  attendance text,
  near_latitude double precision,
  near_longitude double precision,
  near_radius_km double precision,
  -- One key every matching event holds (its longest word, else its topic, city or country,
  -- prefixed by kind), or NULL: a batch is matched only against the searches its events' keys
  -- name (server/db/saved-search-match.ts eventAnchors).
  anchor text GENERATED ALWAYS AS (coalesce(word_anchor, 't:' || lower(topic),
    'c:' || lower(city), 'n:' || lower(country))) STORED,
  webhook_url text,
  -- "whsec_" + base64: kept as given, since signing needs it.
  webhook_secret text,
  -- Set when deliveries failed for the whole retry schedule; a new webhook_url clears it.
  webhook_disabled_at timestamptz,
  email text NOT NULL DEFAULT 'off' CHECK (email IN ('instant', 'daily', 'off')),
  paused boolean NOT NULL DEFAULT false,
  -- The capability in the private feeds' URLs; replaced to revoke them.
  feed_token text NOT NULL UNIQUE,
  -- The capability in mails' one-click unsubscribe link (RFC 8058).
  unsubscribe_token text NOT NULL UNIQUE,
  -- The origin of the request that saved it: mails' links when PUBLIC_URL is unset.
  link_base text NOT NULL,
  -- When the last daily digest went out.
  digest_sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX saved_searches_contributor_idx ON saved_searches (contributor_id, created_at, id);
CREATE INDEX saved_searches_anchor_idx ON saved_searches (anchor) WHERE NOT paused;

-- The events a saved search has told of, with what a material change compares. No foreign key
-- to events: a removal is told after the event is gone.
CREATE TABLE saved_search_hits (
  saved_search_id uuid NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  starts_at timestamptz NOT NULL,
  place text NOT NULL,
  title text NOT NULL,
  source_url text NOT NULL,
  notified_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (saved_search_id, event_id)
);

CREATE INDEX saved_search_hits_event_idx ON saved_search_hits (event_id);

-- What to tell: decided in the transaction that saw the reason. `id` is the stable message id
-- (the webhook-id) a receiver drops repeats by.
CREATE TABLE alert_notices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  saved_search_id uuid NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('new', 'changed', 'removed', 'test')),
  -- For a removal: what the event was (it is gone by delivery).
  event jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX alert_notices_search_idx ON alert_notices (saved_search_id, created_at DESC);

-- One row per notice and channel. A worker claims a due row by moving `due_at` past its lease
-- (FOR UPDATE SKIP LOCKED); a worker that dies leaves the row due again when the lease ends.
CREATE TABLE alert_deliveries (
  notice_id uuid NOT NULL REFERENCES alert_notices (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('webhook', 'email')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'delivered', 'failed', 'dropped')),
  attempts integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL DEFAULT now(),
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_result text,
  PRIMARY KEY (notice_id, channel)
);

CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (due_at) WHERE status = 'pending';
