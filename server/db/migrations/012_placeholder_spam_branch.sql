-- Placeholder on the spam branch only, so that 014 applies without a gap: the real 012 comes
-- from another branch. Delete this file at merge.
SELECT 1;
