-- Events whose duplicates are still to be found. The transaction that writes a batch records its
-- inserted and changed events here and commits without detecting; the server's detector takes
-- them after the commit, in transactions of its own, while the next batch is already being
-- stored (server/duplicates/duplicate-detector.ts). A row outlives a stopped server: the next one
-- takes it at start. No foreign key: a deleted event's row is taken and dropped like any other,
-- and checking one would cost every write an index probe more.
CREATE TABLE duplicate_queue (
  event_id uuid PRIMARY KEY,
  -- Written new (it has no keys or links yet), rather than changed. An event written again
  -- before it was detected keeps its first row: new stays new.
  inserted boolean NOT NULL
);
