-- Contributors not yet reviewed (docs/unreviewed-contributors.md): budgets, a fair front page,
-- signals for the review queue, one-action clean-up and the operators' audit log.

-- Keys a contributor made for itself on the dashboard. Only contributors whose keys are all of
-- this kind and none trusted are "unreviewed" (server/db/unreviewed-rule.ts): a key an operator
-- made is the operator's word for its contributor.
ALTER TABLE api_keys ADD COLUMN self_service boolean NOT NULL DEFAULT false;
UPDATE api_keys SET self_service = true WHERE created_by LIKE 'dashboard:%';

-- A cleaned-up contributor: its account may no longer sign in.
ALTER TABLE contributors ADD COLUMN blocked_at timestamptz;

-- A contributor's upcoming events in start order: the budget counts them at every push, and the
-- fair listing reads each unreviewed contributor's events soonest first.
CREATE INDEX events_contributor_start_idx ON events (contributor_id, starts_at, id);

-- Every operator decision, oldest first by `id`. `decided_by` is the operator key's display
-- prefix, ADMIN_API_KEY, or the operator's site address; `details` holds the counts.
CREATE TABLE operator_decisions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  decided_at timestamptz NOT NULL DEFAULT now(),
  decided_by text NOT NULL,
  action text NOT NULL,
  contributor_id uuid REFERENCES contributors (id),
  key_id uuid REFERENCES api_keys (id),
  event_id uuid,
  details jsonb NOT NULL DEFAULT '{}'
);

-- Why an operator should look at an event first (server/events/event-signals.ts). Only events
-- with at least one signal have a row. No foreign key to events: a cascade is one more query per
-- deleted event, and a clean-up deletes 10,000 at once. Readers join events, so the row of an
-- event deleted otherwise is ignored until the periodic prune removes it.
CREATE TABLE event_signals (
  event_id uuid PRIMARY KEY,
  contributor_id uuid NOT NULL REFERENCES contributors (id),
  signals text[] NOT NULL CHECK (cardinality(signals) > 0)
);
CREATE INDEX event_signals_contributor_idx ON event_signals (contributor_id);

-- Source URL hosts of cleaned-up contributors' events: the same host from someone else is a
-- signal. Hosts many honest contributors share are the operator's to judge.
CREATE TABLE spam_hosts (
  host text PRIMARY KEY,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  events integer NOT NULL
);
