-- BM25-like text ranking (server/db/text-matches.ts): how many events hold each lexeme and how long
-- an event's text is on average. ts_stat reads the whole table, so these are refreshed now and
-- then (server/db/text-stats.ts), never per query; a lexeme missing here counts as rare.

CREATE TABLE text_term_stats (
  lexeme text PRIMARY KEY,
  docs integer NOT NULL
);

-- One row: the events counted and their mean length (lexemes in search_vector).
CREATE TABLE text_corpus_stats (
  single boolean PRIMARY KEY DEFAULT true CHECK (single),
  docs integer NOT NULL,
  mean_length double precision NOT NULL,
  refreshed_at timestamptz NOT NULL
);

-- Lexemes held by one event only are left out: missing means rare, and they are most of the
-- vocabulary.
CREATE FUNCTION refresh_text_stats() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM text_term_stats;
  INSERT INTO text_term_stats (lexeme, docs)
  SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM events') WHERE ndoc > 1;
  INSERT INTO text_corpus_stats (docs, mean_length, refreshed_at)
  SELECT count(*), coalesce(avg(length(search_vector)), 1), now() FROM events
  ON CONFLICT (single) DO UPDATE
    SET docs = excluded.docs, mean_length = excluded.mean_length,
        refreshed_at = excluded.refreshed_at;
END
$$;

-- The words of a query that occur, for ranking: each word's tsquery, its inverse document
-- frequency (BM25's, from the stats above; a lexeme they lack counts as held by one event), and
-- whether it is meaningful (a lexeme longer than one letter: only those may fill a page alone).
CREATE FUNCTION event_text_rank_words(query text)
RETURNS TABLE (word tsquery, idf double precision, meaningful boolean)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH corpus AS (
    SELECT coalesce((SELECT docs FROM text_corpus_stats), 0) AS n
  )
  SELECT u.word,
         ln(1 + (greatest(c.n, d.docs) - d.docs + 0.5) / (d.docs + 0.5)),
         EXISTS (SELECT 1 FROM unnest(event_text_lexemes(u.word)) AS l WHERE char_length(l) > 1)
  FROM corpus c, unnest((event_text_words(query)).words) WITH ORDINALITY AS u(word, n),
  -- A word of several lexemes ("machine-learning") is as rare as its rarest.
  LATERAL (
    SELECT CASE WHEN count(*) < cardinality(event_text_lexemes(u.word)) THEN 1
                ELSE min(s.docs) END AS docs
    FROM text_term_stats s
    WHERE s.lexeme = ANY (event_text_lexemes(u.word))
  ) AS d
  ORDER BY u.n
$$;

-- For each phrase (lower-cased) of a query: the city and the country of that name among the
-- events (as one of them spells it), and whether some event has it as a topic. Sequential scans
-- are off: for EXISTS the planner expects an early match and would read the table in order, all
-- 100,000 rows of it for a phrase that is no topic (8 s per search on PostgreSQL); the indexes on
-- lower(city), lower(country) and the lower-cased topics answer in a few pages.
CREATE FUNCTION event_places_named(phrases text[])
RETURNS TABLE (phrase text, city text, country text, topic boolean)
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off AS $$
  -- The topic is asked about places only: most phrases are none.
  SELECT n.phrase, n.city, n.country,
    (n.city IS NOT NULL OR n.country IS NOT NULL) AND EXISTS (
      SELECT 1 FROM events e WHERE event_labels_lower(e.topics) @> ARRAY[n.phrase])
  FROM (
    SELECT p.phrase,
      (SELECT e.city FROM events e WHERE lower(e.city) = p.phrase LIMIT 1) AS city,
      (SELECT e.country FROM events e WHERE lower(e.country) = p.phrase LIMIT 1) AS country
    FROM unnest(phrases) AS p(phrase)
  ) AS n
$$;
