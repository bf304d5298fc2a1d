-- A deleted event's key rows are found each by its whole row but the latitude: each key over each
-- stretch of its set's days, as detection wrote them (server/db/match-keys.ts, keyRows; a stretch
-- is 4 days there, STRETCH_DAYS). Before, each key's rows over the set's days were a range of the
-- index, holding a busy key's rows of every other listing on those days as well: in a calendar of
-- 2,700 listings a day, hundreds read for each row deleted.
CREATE OR REPLACE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_lookup_keys
  WHERE ctid = ANY(ARRAY(
    SELECT r.ctid
    FROM event_key_sets s
    CROSS JOIN LATERAL unnest(s.keys) AS k(hash)
    CROSS JOIN LATERAL generate_series(s.first_day, s.last_day, 4) AS d(day)
    CROSS JOIN LATERAL (
      SELECT l.ctid FROM event_lookup_keys l
      WHERE l.hash = k.hash AND l.day = d.day AND l.last = least(d.day + 3, s.last_day)
        AND l.event_id = s.event_id
    ) r
    WHERE s.event_id IN (SELECT id FROM gone)));
  DELETE FROM event_key_sets WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
