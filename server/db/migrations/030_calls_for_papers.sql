-- An event's call for papers: the page to submit on and when submissions open and close, as
-- instants (a bare date is turned into one before it is stored: shared/cfp-times.ts).
ALTER TABLE events
  ADD COLUMN cfp_url text,
  ADD COLUMN cfp_opens_at timestamptz,
  ADD COLUMN cfp_closes_at timestamptz;

-- The deadline order (sort=cfp_closes_at): soonest deadline first, CFPs without one after every
-- dated one, ties by id. Only events with a CFP are in it, so it stays small and the open-CFP
-- listing reads it from the first deadline not yet passed.
CREATE INDEX events_cfp_deadline_idx
  ON events ((coalesce(cfp_closes_at, 'infinity'::timestamptz)), id)
  WHERE cfp_url IS NOT NULL;
