-- What a text search looks for. A query is a list of words; events matching every word come
-- first, and a query of several words falls back to events matching most of them, down to half
-- of its meaningful words. Each group of equally good matches is a tier: a tsquery the GIN index
-- answers on its own (no phrases, no weights, so no row is re-read to decide a match).
--
-- Stop words never count (the English configuration drops them); single letters ("c", "r") count
-- in the all-words tier only, so they never make a fallback match everything.
--
-- Declared IMMUTABLE (ts_parse is only STABLE in general, but the default parser and the English
-- configuration are built in) so that a statement planned with its values folds these calls into
-- constants, and the planner sees the real query when it estimates how many events match.

-- One word: the lexemes it must all contain, or NULL for a stop word. A letter beside a real
-- word adds nothing ("e-mail" is "mail", "o'reilly" is "reilly").
CREATE FUNCTION event_text_word(lexemes text[]) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ('(' || string_agg(
            '''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' & ' ORDER BY l)
          || ')')::tsquery
  FROM (SELECT DISTINCT l FROM unnest(lexemes) AS l) AS d
  WHERE char_length(l) > 1 OR NOT EXISTS (SELECT 1 FROM unnest(lexemes) AS x WHERE char_length(x) > 1)
$$;

-- The words of a query, at most six (the fallback tiers grow combinatorially), repeated words
-- once; `meaningful` are those with a lexeme longer than one character. A hyphenated word or a
-- URL is one word made of its parts, so "machine-learning" also matches "machine learning".
CREATE FUNCTION event_text_words(query text, OUT words tsquery[], OUT meaningful tsquery[])
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
    IF word IS NOT NULL AND NOT word = ANY (words) AND cardinality(words) < 6 THEN
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

-- Events matching at least `k` of `words`.
CREATE FUNCTION event_text_at_least(words tsquery[], k integer) RETURNS tsquery
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n integer := cardinality(words);
  result tsquery;
BEGIN
  IF k < 1 OR k > n THEN
    RETURN NULL;
  END IF;
  IF k = 1 OR k = n THEN
    result := words[1];
    FOR i IN 2..n LOOP
      result := CASE WHEN k = 1 THEN result || words[i] ELSE result && words[i] END;
    END LOOP;
    RETURN result;
  END IF;
  -- With the first word and k - 1 of the rest, or k of the rest without it.
  RETURN (words[1] && event_text_at_least(words[2:], k - 1))
      || event_text_at_least(words[2:], k);
END
$$;

-- The tiers of a query, best first, each excluding the better ones: every word; then, counting
-- only meaningful words, all of them, all but one, ... down to half of them. Empty when the query
-- has no searchable word.
CREATE FUNCTION event_text_tiers(query text) RETURNS tsquery[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  parsed record;
  every tsquery;
  better tsquery;
  tiers tsquery[] := '{}';
  n integer;
BEGIN
  parsed := event_text_words(query);
  IF cardinality(parsed.words) = 0 THEN
    RETURN tiers;
  END IF;
  every := event_text_at_least(parsed.words, cardinality(parsed.words));
  tiers := ARRAY[every];
  better := every;
  n := cardinality(parsed.meaningful);
  FOR k IN REVERSE n..greatest(1, ceil(n / 2.0)::integer) LOOP
    -- All the words are meaningful: the first fallback would be the same as every word.
    IF k < cardinality(parsed.words) THEN
      tiers := tiers || (event_text_at_least(parsed.meaningful, k) && !!better);
      better := every || event_text_at_least(parsed.meaningful, k);
    END IF;
  END LOOP;
  RETURN tiers;
END
$$;

-- Events in any tier of the query (what a filter on `q` keeps), or NULL when it has no word.
CREATE FUNCTION event_text_match(query text) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN cardinality(w.meaningful) > 0 AND fewest < cardinality(w.words)
              THEN every || event_text_at_least(w.meaningful, fewest)
              ELSE every END
  FROM event_text_words(query) AS w,
       LATERAL (SELECT event_text_at_least(w.words, cardinality(w.words)) AS every,
                       greatest(1, ceil(cardinality(w.meaningful) / 2.0)::integer) AS fewest) AS e
$$;

-- Any of the words: what ts_rank_cd weighs within a tier.
CREATE FUNCTION event_text_rank_query(query text) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT event_text_at_least((event_text_words(query)).words, 1)
$$;
