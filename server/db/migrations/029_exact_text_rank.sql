-- Exact BM25F text ranking (server/db/text-matches.ts, docs/search.md) with statistics that are
-- always current.
--
-- 1. Statistics change in the transaction that changes the events: per lexeme, how many events
--    hold it; over all events, how many there are and their total length. Kept as append-only
--    deltas (one row per lexeme per statement, one row per statement) summed when read, so that
--    concurrent pushes never wait on the counter of a common word; now and then a statement folds
--    the rows of the lexemes it touched into one, skipping rows another transaction holds.
-- 2. Postings ordered by impact: per lexeme, its events by the term's BM25F factor at a fixed
--    reference length. Text ranking reads the best postings of each query word and scores those
--    events exactly; the postings it did not read bound what any other event can score, so the
--    page is exact without scoring every event that holds a common word.
--
-- The statistics table refreshed from the whole table now and then (012) goes.

DROP FUNCTION event_text_rank_words(text);
DROP FUNCTION refresh_text_stats();
DROP TABLE text_term_stats;
DROP TABLE text_corpus_stats;

-- A lexeme's weighted term frequency in an event: its occurrences (positions) per field, title
-- (A) 2, labels (B) 1.5, place and organiser (C) 1, description (D) 1. Dyadic weights, so that
-- sums are exact in float4 (ts_rank_cd's type, read at half these) and float8 alike. Chosen on
-- scripts/eval-search.ts: at half these (the description's weight a quarter of k1's scale lower)
-- FOSDEM paraphrases scored 0.509 against 0.528.
CREATE FUNCTION event_text_tf(weights text[]) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum(CASE w WHEN 'A' THEN 2.0 WHEN 'B' THEN 1.5 ELSE 1.0 END), 0)::float8
  FROM unnest(weights) AS w
$$;

-- BM25's term factor tf (k1 + 1) / (tf + k1 (1 - b + b len / mean)), k1 1.2, b 0.75.
CREATE FUNCTION event_text_factor(tf float8, len float8, mean float8) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / greatest(mean, 1)))
$$;

-- The order of postings: the term factor at a fixed reference mean length of 64 lexemes. Never
-- change it without rebuilding event_text_postings: deletes find postings by it.
CREATE FUNCTION event_text_impact(tf float8, len float8) RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT event_text_factor(tf, len, 64)::real
$$;

CREATE TABLE event_text_postings (
  lexeme text NOT NULL,
  impact real NOT NULL,
  event_id uuid NOT NULL
);
CREATE INDEX event_text_postings_order_idx
  ON event_text_postings (lexeme, impact DESC, event_id);

CREATE TABLE text_lexeme_deltas (
  lexeme text NOT NULL,
  docs integer NOT NULL
);
CREATE INDEX text_lexeme_deltas_lexeme_idx ON text_lexeme_deltas (lexeme);

CREATE TABLE text_corpus_deltas (
  docs integer NOT NULL,
  lengths bigint NOT NULL
);

-- Folds the delta rows of `lexemes` (and the corpus rows) into one row each. Rows another
-- transaction holds are skipped: their sums stay right, folded later.
CREATE FUNCTION fold_text_deltas(lexemes text[]) RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM text_lexeme_deltas d
    WHERE d.ctid = ANY (ARRAY(
      SELECT x.ctid FROM text_lexeme_deltas x WHERE x.lexeme = ANY (lexemes)
      FOR UPDATE SKIP LOCKED))
    RETURNING d.lexeme, d.docs
  )
  INSERT INTO text_lexeme_deltas (lexeme, docs)
  SELECT lexeme, sum(docs) FROM gone GROUP BY lexeme HAVING sum(docs) <> 0;
  WITH gone AS (
    DELETE FROM text_corpus_deltas d
    WHERE d.ctid = ANY (ARRAY(SELECT x.ctid FROM text_corpus_deltas x FOR UPDATE SKIP LOCKED))
    RETURNING d.docs, d.lengths
  )
  INSERT INTO text_corpus_deltas (docs, lengths)
  SELECT sum(docs), sum(lengths) FROM gone HAVING count(*) > 0;
$$;

-- Counts events in (sign 1) or out (sign -1) of the statistics and the postings.
CREATE FUNCTION event_text_count(ids uuid[], vectors tsvector[], sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  IF sign > 0 THEN
    INSERT INTO event_text_postings (lexeme, impact, event_id)
    SELECT u.lexeme, event_text_impact(event_text_tf(u.weights), length(r.v)), r.id
    FROM unnest(ids, vectors) AS r(id, v), unnest(r.v) AS u;
  ELSE
    DELETE FROM event_text_postings p
    USING (
      SELECT u.lexeme, event_text_impact(event_text_tf(u.weights), length(r.v)) AS impact,
             r.id
      FROM unnest(ids, vectors) AS r(id, v), unnest(r.v) AS u
    ) AS o
    WHERE p.lexeme = o.lexeme AND p.impact = o.impact AND p.event_id = o.id;
  END IF;
  WITH counted AS (
    INSERT INTO text_lexeme_deltas (lexeme, docs)
    SELECT l, sign * count(*) FROM unnest(vectors) AS v, unnest(tsvector_to_array(v)) AS l
    GROUP BY l
    RETURNING lexeme
  )
  SELECT array_agg(lexeme) INTO touched FROM counted;
  INSERT INTO text_corpus_deltas (docs, lengths)
  SELECT sign * count(*), sign * coalesce(sum(length(v)), 0) FROM unnest(vectors) AS v;
  -- About one statement in sixteen folds what it touched: the rows summed per lexeme stay few.
  IF random() < 0.0625 THEN
    PERFORM fold_text_deltas(touched);
  END IF;
END
$$;

CREATE FUNCTION event_text_counted_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_text_count(coalesce(array_agg(n.id), '{}'),
                           coalesce(array_agg(n.search_vector), '{}'), 1)
  FROM new_rows n;
  RETURN NULL;
END
$$;

CREATE FUNCTION event_text_counted_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_text_count(coalesce(array_agg(o.id), '{}'),
                           coalesce(array_agg(o.search_vector), '{}'), -1)
  FROM old_rows o;
  RETURN NULL;
END
$$;

-- Only events whose text changed move (most updates change no word).
CREATE FUNCTION event_text_counted_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_text_count(coalesce(array_agg(o.id), '{}'),
                           coalesce(array_agg(o.search_vector), '{}'), -1)
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE o.search_vector IS DISTINCT FROM n.search_vector;
  PERFORM event_text_count(coalesce(array_agg(n.id), '{}'),
                           coalesce(array_agg(n.search_vector), '{}'), 1)
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE o.search_vector IS DISTINCT FROM n.search_vector;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_text_counted_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_text_counted_insert();
CREATE TRIGGER events_text_counted_delete AFTER DELETE ON events
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_text_counted_delete();
CREATE TRIGGER events_text_counted_update AFTER UPDATE ON events
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_text_counted_update();

-- The events stored before this migration.
INSERT INTO event_text_postings (lexeme, impact, event_id)
SELECT u.lexeme, event_text_impact(event_text_tf(u.weights), length(e.search_vector)), e.id
FROM events e, unnest(e.search_vector) AS u;
INSERT INTO text_lexeme_deltas (lexeme, docs)
SELECT l, count(*) FROM events e, unnest(tsvector_to_array(e.search_vector)) AS l GROUP BY l;
INSERT INTO text_corpus_deltas (docs, lengths)
SELECT count(*), coalesce(sum(length(search_vector)), 0) FROM events;

-- The statistics of lexemes: events holding each (0 when none), and the corpus.
CREATE FUNCTION text_lexeme_docs(lexemes text[])
RETURNS TABLE (lexeme text, docs bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT l, coalesce((SELECT sum(d.docs) FROM text_lexeme_deltas d WHERE d.lexeme = l), 0)::bigint
  FROM unnest(lexemes) AS l
$$;

CREATE FUNCTION text_corpus_totals(OUT docs bigint, OUT lengths bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum(d.docs), 0)::bigint, coalesce(sum(d.lengths), 0)::bigint
  FROM text_corpus_deltas d
$$;

-- The words a text search scores, in the query's order, repeated words once, at most `most`:
-- each as the lexemes of its parts (a hyphenated or slashed word, a URL: "test-driven" is test and
-- driven) and the single lexemes that also spell it whole ("testdriven", "ci/cd"). Stop words are
-- no part; a single letter beside a longer part is none either ("e-mail" is mail).
CREATE FUNCTION event_text_terms(query text, most integer)
RETURNS TABLE (parts text[], wholes text[])
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  token record;
  current text[] := '{}';
  pieces text[] := '{}';
  extra text[] := '{}';
  in_compound boolean := false;
  seen text[] := '{}';
  key text;
  emitted integer := 0;
BEGIN
  -- A sentinel blank flushes the last word.
  FOR token IN
    SELECT p.tokid, p.token FROM ts_parse('default', query) AS p
    UNION ALL SELECT 0, ' '
  LOOP
    -- Token kinds of ts_token_type('default'): 12 blank; 5 URL and 15-17 hyphenated words,
    -- whose parts (6 host, 9-11 word parts, 18 URL path) follow them; 19 a file path such as
    -- ci/cd, whose parts do not follow.
    IF in_compound AND token.tokid IN (6, 9, 10, 11, 18) THEN
      current := current || tsvector_to_array(to_tsvector('english', token.token));
      pieces := pieces || token.token;
      CONTINUE;
    END IF;
    IF token.tokid = 12 AND token.token !~ '\s' THEN
      CONTINUE; -- punctuation inside a compound, such as its hyphen
    END IF;
    SELECT coalesce(array_agg(DISTINCT l ORDER BY l)
             FILTER (WHERE char_length(l) > 1 OR NOT EXISTS (
               SELECT 1 FROM unnest(current) AS x WHERE char_length(x) > 1)), '{}')
      INTO current FROM unnest(current) AS l;
    IF cardinality(current) > 0 AND emitted < most THEN
      IF cardinality(pieces) > 1 THEN
        extra := extra || tsvector_to_array(to_tsvector('english', array_to_string(pieces, '')));
      END IF;
      SELECT coalesce(array_agg(DISTINCT l ORDER BY l), '{}') INTO extra
      FROM unnest(extra) AS l WHERE NOT l = ANY (current);
      key := array_to_string(current, ' ') || '|' || array_to_string(extra, ' ');
      IF NOT key = ANY (seen) THEN
        seen := seen || key;
        emitted := emitted + 1;
        parts := current;
        wholes := extra;
        RETURN NEXT;
      END IF;
    END IF;
    current := '{}';
    pieces := '{}';
    extra := '{}';
    in_compound := token.tokid IN (5, 15, 16, 17);
    IF token.tokid = 19 THEN
      pieces := regexp_split_to_array(token.token, '[/\\.]+');
      current := tsvector_to_array(to_tsvector('english', array_to_string(pieces, ' ')));
      extra := tsvector_to_array(to_tsvector('english', token.token));
    ELSIF NOT in_compound AND token.tokid NOT IN (0, 12) THEN
      current := tsvector_to_array(to_tsvector('english', token.token));
      pieces := ARRAY[token.token];
    END IF;
  END LOOP;
END
$$;

-- Which phrases some event holds as text, word after word ("virtual reality", "today I
-- learned"): such a phrase is a subject, never a filter (server/search/interpret-query.ts).
-- Sequential scans are off for the reason event_places_named gives (012): the GIN index finds the
-- events holding every word, and only those are read for the words' positions.
CREATE FUNCTION event_phrases_held(phrases text[]) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off AS $$
  SELECT coalesce(array_agg(p), '{}') FROM unnest(phrases) AS p
  WHERE numnode(phraseto_tsquery('english', p)) > 1
    AND EXISTS (SELECT 1 FROM events e WHERE e.search_vector @@ phraseto_tsquery('english', p))
$$;

-- The words a text search scores (event_text_terms) as the stored events spell them too: a word
-- written joined that events write apart ("testdriven" where they say "test driven") also counts
-- where its two halves occur side by side, and two words that events write slashed or joined
-- ("ci cd" where they say "CI/CD", "test driven" where they say "testdriven": one lexeme) each also
-- count where that form occurs. Reads the data, so STABLE.
CREATE FUNCTION event_text_search_terms(query text, most integer)
RETURNS TABLE (parts text[], wholes text[])
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off AS $$
  WITH t AS (
    SELECT row_number() OVER () AS n, t.parts, t.wholes FROM event_text_terms(query, most) AS t
  ), split AS (
    -- The first split of a joined word whose halves some event holds side by side.
    SELECT DISTINCT ON (t.n) t.n, ARRAY[x.l, x.r] AS parts
    FROM t, generate_series(2, char_length(t.parts[1]) - 2) AS i,
      LATERAL (
        SELECT left(t.parts[1], i) AS lw, substr(t.parts[1], i + 1) AS rw,
               tsvector_to_array(to_tsvector('english', left(t.parts[1], i))) AS la,
               tsvector_to_array(to_tsvector('english', substr(t.parts[1], i + 1))) AS ra
      ) AS h,
      LATERAL (SELECT h.la[1] AS l, h.ra[1] AS r) AS x
    WHERE cardinality(t.parts) = 1 AND cardinality(t.wholes) = 0
      AND char_length(t.parts[1]) >= 5 AND t.parts[1] ~ '^[a-z]+$'
      AND cardinality(h.la) = 1 AND cardinality(h.ra) = 1
      AND EXISTS (SELECT 1 FROM events e
                  WHERE e.search_vector @@ phraseto_tsquery('english', h.lw || ' ' || h.rw))
    ORDER BY t.n, i
  ), slashed AS (
    SELECT a.n AS first, b.n AS second, j.lexeme
    FROM t a JOIN t b ON b.n = a.n + 1,
      unnest(ARRAY[a.parts[1] || '/' || b.parts[1], a.parts[1] || b.parts[1]]) AS j(lexeme)
    WHERE cardinality(a.parts) = 1 AND cardinality(b.parts) = 1
      AND EXISTS (SELECT 1 FROM text_lexeme_deltas d WHERE d.lexeme = j.lexeme)
  )
  SELECT coalesce(s.parts, t.parts),
         CASE WHEN s.parts IS NULL THEN t.wholes ELSE t.parts END
           || coalesce((SELECT array_agg(DISTINCT x.lexeme) FROM slashed x
                        WHERE t.n IN (x.first, x.second)), '{}')
  FROM t LEFT JOIN split s ON s.n = t.n
  ORDER BY t.n
$$;
