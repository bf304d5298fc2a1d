-- The platform filter. The only index that held platform was the unique (external_id, platform),
-- and for a platform alone the planner scanned all of it (620 pages at 100,000 events, 7 ms on
-- PGlite) to AND it with a city or topic: semantic search under strict filters reads the events
-- those filters keep (server/db/vector-matches.ts). Its own index answers in under a millisecond.
CREATE INDEX events_platform_idx ON events (platform);
