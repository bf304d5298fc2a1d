-- Detection takes its queue first in, first out. Without an order a take read the table's pages
-- from the start, where space freed by earlier takes holds the newest rows: under a steady stream
-- of pushes an event could wait behind later ones take after take, and grouping's delay had no
-- bound. The number is the order rows were queued in; an event queued again keeps its first row.
ALTER TABLE duplicate_queue ADD COLUMN queued bigint GENERATED ALWAYS AS IDENTITY;
