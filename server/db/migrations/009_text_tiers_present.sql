-- Text search tiers over the words that occur at all (see 004_text_tiers.sql for the tiers).
--
-- The planner estimates a word it has no statistics for (one missing from the most common
-- elements of search_vector) at 0.5% of the events. At 1,000,000 events that made it read events
-- in start order for a fallback tier of two words that occur nowhere, expecting a match every 300
-- rows: it read all million (6 s). A word that occurs in no event cannot help any tier; asking the
-- GIN index whether it occurs costs a few pages, so the tiers are built from the words that do,
-- while the bar of the fallback tiers (half of the query's meaningful words) stays where the
-- whole query puts it.

-- The tiers of `words` (the meaningful ones among them in `meaningful`), best first: all of
-- `words`, then `meaningful` words from all of them down to `fewest`.
CREATE FUNCTION event_text_tiers_of(words tsquery[], meaningful tsquery[], fewest integer)
RETURNS tsquery[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  every tsquery;
  better tsquery;
  tiers tsquery[] := '{}';
  n integer := cardinality(meaningful);
BEGIN
  IF cardinality(words) = 0 OR (n > 0 AND n < fewest) THEN
    RETURN tiers;
  END IF;
  every := event_text_at_least(words, cardinality(words));
  tiers := ARRAY[every];
  better := every;
  FOR k IN REVERSE n..greatest(1, fewest) LOOP
    -- All the words are meaningful: the first fallback would be the same as every word.
    IF k < cardinality(words) THEN
      tiers := tiers || (event_text_at_least(meaningful, k) && !!better);
      better := every || event_text_at_least(meaningful, k);
    END IF;
  END LOOP;
  RETURN tiers;
END
$$;

-- Unchanged result; now written with event_text_tiers_of.
CREATE OR REPLACE FUNCTION event_text_tiers(query text) RETURNS tsquery[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT event_text_tiers_of(w.words, w.meaningful,
                             ceil(cardinality(w.meaningful) / 2.0)::integer)
  FROM event_text_words(query) AS w
$$;

-- The lexemes of a word's tsquery ('machin' & 'learn': machin, learn).
CREATE FUNCTION event_text_lexemes(word tsquery) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(replace(m[1], '''''', '''')), '{}')
  FROM regexp_matches(word::text, '''((?:[^'']|'''')*)''', 'g') AS m
$$;

-- The tiers a search runs: those of the query's words that occur in some event. Reads the data,
-- so STABLE, and called once per search, not per row. A word whose lexemes are all among the
-- commonest of search_vector (its statistics) occurs; any other is rare, and the GIN index says
-- whether it occurs at the cost of its few matches. (Asking the index about a common word would
-- collect all its matches first: 50 ms and more at a million events.) Scans that read rows are
-- switched off so that the planner cannot look for a rare word's first match event by event,
-- which is the trap described above.
CREATE FUNCTION event_text_search_tiers(query text) RETURNS tsquery[]
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off SET enable_indexscan = off AS $$
  WITH common AS (
    SELECT coalesce((
      SELECT most_common_elems::text::text[] FROM pg_stats
      WHERE schemaname = current_schema() AND tablename = 'events' AND attname = 'search_vector'
    ), '{}') AS lexemes
  )
  SELECT event_text_tiers_of(
           coalesce(array_agg(x.word ORDER BY x.n) FILTER (WHERE x.occurs), '{}'),
           coalesce(array_agg(x.word ORDER BY x.n)
                      FILTER (WHERE x.occurs AND x.word = ANY (w.meaningful)), '{}'),
           ceil(cardinality(w.meaningful) / 2.0)::integer)
  FROM common, event_text_words(query) AS w
  LEFT JOIN LATERAL (
    SELECT u.word, u.n,
           event_text_lexemes(u.word) <@ (SELECT lexemes FROM common)
             OR EXISTS (SELECT 1 FROM events e WHERE e.search_vector @@ u.word) AS occurs
    FROM unnest(w.words) WITH ORDINALITY AS u(word, n)
  ) AS x ON true
  GROUP BY w.words, w.meaningful
$$;
