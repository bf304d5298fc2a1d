-- The place lookup of query interpretation (event_places_named, migration 012) ran in 0.8 ms on
-- PGlite at 100,000 events but was planned at every call, 15 ms (WebAssembly; its three lookups
-- weigh a dozen indexes on events). PostgreSQL 18 (PGlite) caches a SQL function's plans, but the
-- array of phrases made the generic plan look dearer than a custom one, so it planned anew each
-- time. The plan is the same for any phrases (each an index probe), so the generic one is forced:
-- the place lookup of a search fell from 9.0 to 2.4 ms of CPU on PGlite. PostgreSQL 15 plans a SQL
-- function's body per call whatever this says (0.5 ms there).
ALTER FUNCTION event_places_named(text[]) SET plan_cache_mode = force_generic_plan;
