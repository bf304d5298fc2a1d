-- The numbers of key-set writes (migration 025) serve servers that share a PostgreSQL database: each
-- learns the others' sets by them. The embedded database has one server, which never reads them, yet
-- every set it wrote took one and an entry in their index, and each rewrite of a set changed an
-- indexed column (so no rewrite was a HOT update). Now a write takes a number only where the
-- database is shared (writeSets' `numbered`), and the index holds only the numbered sets.
ALTER TABLE event_key_sets ALTER COLUMN written DROP DEFAULT, ALTER COLUMN written DROP NOT NULL;
DROP INDEX event_key_sets_written_idx;
CREATE INDEX event_key_sets_written_idx ON event_key_sets (written) WHERE written IS NOT NULL;
