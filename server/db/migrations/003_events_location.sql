-- The `near` filter: a latitude/longitude box narrows events through this index before the exact
-- great-circle distance is computed (server/db/near-condition.ts). Events without coordinates
-- can never match, so they stay out of the index.
CREATE INDEX events_location_idx ON events (latitude, longitude)
  WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
