-- A deleted event's key rows are found each by its whole row but the latitude: each key over each
-- stretch of its set's days, as detection wrote them (server/db/match-keys.ts, keyRows; a stretch
-- is 4 days there, STRETCH_DAYS), one descent of the index each (OFFSET 0 keeps the planner from
-- flattening the LATERAL). Before, the planner could read every row of each key, on all days, and
-- filter them: at 1,000,000 events, thousands for each row deleted.
CREATE OR REPLACE FUNCTION delete_lookup_keys_of_gone_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event_lookup_keys
  WHERE ctid = ANY(ARRAY(
    SELECT r.ctid
    FROM event_key_sets s
    CROSS JOIN LATERAL unnest(s.keys) AS k(hash)
    -- LIMIT: a set holds at most five stretches, and the planner takes a series for a thousand
    -- rows, enough to start a JIT compilation.
    CROSS JOIN LATERAL (
      SELECT day FROM generate_series(s.first_day, s.last_day, 4) AS g(day) LIMIT 5
    ) d
    CROSS JOIN LATERAL (
      SELECT l.ctid FROM event_lookup_keys l
      WHERE l.hash = k.hash AND l.day = d.day AND l.last = least(d.day + 3, s.last_day)
        AND l.event_id = s.event_id
      OFFSET 0
    ) r
    WHERE s.event_id IN (SELECT id FROM gone)));
  DELETE FROM event_key_sets WHERE event_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
