-- What a text search reads first (server/db/text-query.ts): its tiers and its words' statistics.
-- As SQL functions with settings, event_text_search_tiers and event_text_rank_words (and
-- event_text_lexemes, which both call per word) could not be inlined, and PostgreSQL 15 planned
-- their bodies anew at every search: the statement cost 4.9 ms of server CPU per search at 100,000
-- events, most of it planning. The same bodies in PL/pgSQL keep their plans for the session:
-- 2.4 ms, with the same answers (the 16 benchmark queries and others, compared one by one).
-- PostgreSQL 18 (PGlite) caches a SQL function's plans already.

CREATE OR REPLACE FUNCTION event_text_lexemes(word tsquery) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(replace(m[1], '''''', '''')), '{}')
          FROM regexp_matches(word::text, '''((?:[^'']|'''')*)''', 'g') AS m);
END
$$;

-- Unchanged answers; see 009_text_tiers_present.sql for why the scans are set so.
CREATE OR REPLACE FUNCTION event_text_search_tiers(query text) RETURNS tsquery[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_seqscan = off SET enable_indexscan = off AS $$
BEGIN
  RETURN (
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
  );
END
$$;

-- Unchanged answers; see 015_text_rank_docs.sql for the columns and the settings. The idf is cast
-- where the SQL function's result type cast it.
CREATE OR REPLACE FUNCTION event_text_rank_words(query text)
RETURNS TABLE (word tsquery, idf double precision, meaningful boolean, docs integer)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_seqscan = off SET enable_indexscan = off SET jit = off AS $$
BEGIN
  RETURN QUERY
  WITH corpus AS (
    SELECT (SELECT s.docs FROM text_corpus_stats s) AS n
  )
  SELECT u.word,
         ln(1 + (greatest(coalesce(c.n, 0), d.docs) - d.docs + 0.5) / (d.docs + 0.5))::float8,
         EXISTS (SELECT 1 FROM unnest(x.lexemes) AS l WHERE char_length(l) > 1),
         CASE
           WHEN c.n IS NULL THEN NULL
           WHEN d.missing THEN
             CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.search_vector @@ u.word) THEN 1
                  ELSE 0 END
           ELSE d.docs
         END
  FROM corpus c, unnest((event_text_words_upto(query, 10)).words) WITH ORDINALITY AS u(word, n),
  -- A word's lexemes once, not once per use (OFFSET 0 keeps the call from being copied into each):
  -- 4.3 -> 3.7 ms of CPU for this function on PGlite.
  LATERAL (SELECT event_text_lexemes(u.word) AS lexemes OFFSET 0) AS x,
  LATERAL (
    SELECT count(*) < cardinality(x.lexemes) AS missing,
           CASE WHEN count(*) < cardinality(x.lexemes) THEN 1
                ELSE min(s.docs) END AS docs
    FROM text_term_stats s
    WHERE s.lexeme = ANY (x.lexemes)
  ) AS d
  ORDER BY u.n;
END
$$;
