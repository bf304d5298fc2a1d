-- Saved searches take the call-for-papers filters (docs/alerts.md): `cfp` ('open' or 'any') and
-- the deadline bounds, each in its own column as server/db/saved-search-match.ts reads them.
ALTER TABLE saved_searches
  ADD COLUMN cfp text CHECK (cfp IN ('open', 'any')),
  ADD COLUMN cfp_closes_before timestamptz,
  ADD COLUMN cfp_closes_after timestamptz;

-- The CFP reminder (server/db/cfp-reminders.ts): when the search was told that the CFP of an
-- event it told of closes soon; set once, so it is told once.
ALTER TABLE saved_search_hits ADD COLUMN cfp_reminded_at timestamptz;

ALTER TABLE alert_notices DROP CONSTRAINT alert_notices_kind_check;
ALTER TABLE alert_notices ADD CONSTRAINT alert_notices_kind_check
  CHECK (kind IN ('new', 'changed', 'removed', 'test', 'cfp_closing'));
