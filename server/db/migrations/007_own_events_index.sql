-- GET /api/v1/me/events lists a contributor's events in byte order of (platform, external_id), the
-- same on every server whatever its default collation (server/db/own-events.ts); this index gives
-- that order without sorting, and finds a contributor's events for a batch delete.
CREATE INDEX events_contributor_pair_idx
  ON events (contributor_id, platform COLLATE "C", external_id COLLATE "C");
