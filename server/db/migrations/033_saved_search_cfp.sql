-- Saved searches take the call-for-papers filters (docs/alerts.md): `cfp` ('open' or 'any') and
-- the deadline bounds, each in its own column as server/db/saved-search-match.ts reads them.
ALTER TABLE saved_searches
  ADD COLUMN cfp text CHECK (cfp IN ('open', 'any')),
  ADD COLUMN cfp_closes_before timestamptz,
  ADD COLUMN cfp_closes_after timestamptz;
