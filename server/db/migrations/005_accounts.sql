-- Site accounts: a contributor signs in to the dashboard to make keys and manage their events.
-- Each account is one contributor (the owner of its keys and their events).

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Trimmed and lower-cased at the edge.
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  -- "scrypt$ln=17,r=8,p=1$<salt>$<hash>": parameters travel with the hash, so raising them later
  -- re-hashes each password at its next sign-in.
  password_hash text NOT NULL,
  contributor_id uuid NOT NULL UNIQUE REFERENCES contributors (id),
  -- When the account proved it holds the operator key. Operator rights need this and the address
  -- in OPERATOR_EMAILS: whoever signs up first with an operator's address gains nothing.
  operator_confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  -- SHA-256 of the cookie's token: the table alone opens no session.
  token_digest bytea PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Put in every form of the session and checked on every change.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- The absolute end; the idle end is last_seen_at plus the idle timeout.
  expires_at timestamptz NOT NULL
);

CREATE INDEX sessions_account_idx ON sessions (account_id);

-- Failed sign-ins, per account address and per client address, for throttling.
CREATE TABLE sign_in_failures (
  bucket text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX sign_in_failures_bucket_idx ON sign_in_failures (bucket, failed_at);

-- The dashboard lists a contributor's most recently changed events.
CREATE INDEX events_contributor_updated_idx ON events (contributor_id, updated_at DESC, id);
