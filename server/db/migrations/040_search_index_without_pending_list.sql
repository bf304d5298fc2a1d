-- The text index takes inserts at once (fastupdate off), as detection's key index does (028).
-- With a pending list, every search that asks the index reads the whole list until a vacuum or
-- an insert past 4 MB folds it in: the searches right after a push are the slow ones, and on the
-- embedded database (vacuumed after a fifth of the table is new, embedded-vacuum.ts) the fold
-- ran inside a push's transaction while every read waited. The list built so far is folded now.
ALTER INDEX events_search_vector_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('events_search_vector_idx');
