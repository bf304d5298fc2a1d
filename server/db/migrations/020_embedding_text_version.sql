-- Which version of the embedded text (server/embeddings/embedding-text.ts) each vector was made
-- from. A vector counts as current while its event's content is unchanged; when what is embedded
-- per event changes, the content hashes do not, so without this column no vector would ever be
-- made again from the new text. A worker that knows a newer text re-embeds the vectors of older
-- versions in the background, oldest first, after any event waiting for its first vector; the old
-- vector serves search until the new one replaces it. Version 1: the text up to this migration.
ALTER TABLE event_embeddings ADD COLUMN text_version integer NOT NULL DEFAULT 1;
-- Every writer states the version it embedded with.
ALTER TABLE event_embeddings ALTER COLUMN text_version DROP DEFAULT;
-- The re-embedding walks the outdated vectors in this order.
CREATE INDEX event_embeddings_text_version ON event_embeddings (text_version, embedded_at);
