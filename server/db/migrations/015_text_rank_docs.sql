-- Text ranking draws candidates by relevance (server/db/text-matches.ts): every match of the
-- query's rarest words is collected from the GIN index, rarest first, while their events add up to
-- a bound. That needs how many events hold each word, which event_text_rank_words now returns
-- beside the idf it derives from it.
--
-- `docs` is an upper bound on the events matching the word (a word of several lexemes matches
-- no more events than its rarest lexeme); for a lexeme the statistics leave out (held by one event
-- at most when they were counted) 1 if it occurs and 0 if not; NULL before the statistics were
-- first counted: then nothing is known and no word counts as rare.
--
-- Ranking also scores up to ten words of a query where the tiers keep six: the tiers' cost grows
-- combinatorially with their words, a score's only linearly, and the words past the sixth were
-- lost ("catching regressions automatically before code ships, with CI pipelines" never
-- scored "pipelines").

-- The words of a query as event_text_words (004_text_tiers.sql) reads them, at most `most`.
CREATE FUNCTION event_text_words_upto(query text, most integer,
                                      OUT words tsquery[], OUT meaningful tsquery[])
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  token record;
  current text[];
  in_compound boolean := false;
  word tsquery;
BEGIN
  words := '{}';
  meaningful := '{}';
  -- A sentinel blank flushes the last word.
  FOR token IN
    SELECT p.tokid, p.token FROM ts_parse('default', query) AS p
    UNION ALL SELECT 0, ' '
  LOOP
    -- Token kinds of ts_token_type('default'): 12 blank; 5 URL and 15-17 hyphenated words,
    -- whose parts (6 host, 9-11 word parts, 18 URL path) follow them.
    IF in_compound AND token.tokid IN (6, 9, 10, 11, 18) THEN
      current := current || tsvector_to_array(to_tsvector('english', token.token));
      CONTINUE;
    END IF;
    IF token.tokid = 12 AND token.token !~ '\s' THEN
      CONTINUE; -- punctuation inside a compound, such as its hyphen
    END IF;
    word := event_text_word(current);
    IF word IS NOT NULL AND NOT word = ANY (words) AND cardinality(words) < most THEN
      words := words || word;
      IF EXISTS (SELECT 1 FROM unnest(current) AS l WHERE char_length(l) > 1) THEN
        meaningful := meaningful || word;
      END IF;
    END IF;
    current := '{}';
    in_compound := token.tokid IN (5, 15, 16, 17);
    IF NOT in_compound AND token.tokid NOT IN (0, 12) THEN
      current := tsvector_to_array(to_tsvector('english', token.token));
    END IF;
  END LOOP;
END
$$;

-- Unchanged: the tiers' words, at most six.
CREATE OR REPLACE FUNCTION event_text_words(query text, OUT words tsquery[],
                                            OUT meaningful tsquery[])
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w.words, w.meaningful FROM event_text_words_upto(query, 6) AS w
$$;

DROP FUNCTION event_text_rank_words(text);

-- Scans that read rows are off for the reason event_text_search_tiers gives (009): a lexeme the
-- statistics lack is looked up in the GIN index, never looked for event by event. So is JIT: the
-- one-row statistics table can only be read by the scan switched off, whose cost (ten billion)
-- would make PostgreSQL compile the statement, which took a second.
CREATE FUNCTION event_text_rank_words(query text)
RETURNS TABLE (word tsquery, idf double precision, meaningful boolean, docs integer)
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off SET enable_indexscan = off SET jit = off AS $$
  WITH corpus AS (
    SELECT (SELECT docs FROM text_corpus_stats) AS n
  )
  SELECT u.word,
         ln(1 + (greatest(coalesce(c.n, 0), d.docs) - d.docs + 0.5) / (d.docs + 0.5)),
         EXISTS (SELECT 1 FROM unnest(event_text_lexemes(u.word)) AS l WHERE char_length(l) > 1),
         CASE
           WHEN c.n IS NULL THEN NULL
           -- Held by one event at most when counted: whether by any now, the index says.
           WHEN d.missing THEN
             CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.search_vector @@ u.word) THEN 1
                  ELSE 0 END
           ELSE d.docs
         END
  FROM corpus c, unnest((event_text_words_upto(query, 10)).words) WITH ORDINALITY AS u(word, n),
  -- A word of several lexemes ("machine-learning") is as rare as its rarest.
  LATERAL (
    SELECT count(*) < cardinality(event_text_lexemes(u.word)) AS missing,
           CASE WHEN count(*) < cardinality(event_text_lexemes(u.word)) THEN 1
                ELSE min(s.docs) END AS docs
    FROM text_term_stats s
    WHERE s.lexeme = ANY (event_text_lexemes(u.word))
  ) AS d
  ORDER BY u.n
$$;
