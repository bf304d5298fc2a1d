-- Placeholder on the `dups` branch only: number 12 belongs to another branch, and the runner
-- refuses gaps. Delete this file at merge, where that branch's 012 takes its place.
SELECT 1;
