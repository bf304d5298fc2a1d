-- Words as technologists write them. PostgreSQL's parser drops "#" and "+" ("C#" and "C++" both
-- become the word c) and keeps a dotted name whole ("Node.js" is the one lexeme node.js, so
-- "node", "nodejs" and "vue" found nothing). Text is rewritten before it is parsed, the same way
-- for the events (event_search_vector) and for queries (text-terms.ts, text-query.ts,
-- saved-searches.ts pass the query through event_text_normalised):
-- - C#, F# -> csharp, fsharp; C++ -> cplusplus; a standalone .NET -> dotnet;
-- - a name ending in .js, .ts, .io, .rs or .py also reads as its first part and as one word:
--   "Node.js" -> "Node.js Node Nodejs" (the suffix alone is not added: it names a language or a
--   domain, not the subject).
CREATE FUNCTION event_text_normalised(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(t,
    '(^|[^[:alnum:]_])([CcFf])#', '\1\2sharp', 'g'),
    '(^|[^[:alnum:]_])([Cc])\+\+', '\1\2plusplus', 'g'),
    '(^|[^[:alnum:]_.])\.(net)\M', '\1dotnet', 'gi'),
    '\m([[:alpha:]][[:alnum:]]*)\.(js|ts|io|rs|py)\M', '\1.\2 \1 \1\2', 'gi')
$$;

CREATE OR REPLACE FUNCTION event_search_vector(
  title text, description text, labels text[], event_type text,
  venue_name text, city text, country text, organiser_name text
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', event_text_normalised(coalesce(title, ''))), 'A')
      || setweight(to_tsvector('english', event_text_normalised(
           coalesce(array_to_string(labels, ' '), '') || ' ' || coalesce(event_type, ''))), 'B')
      || setweight(to_tsvector('english', concat_ws(' ', venue_name, city, country, organiser_name)), 'C')
      || setweight(to_tsvector('english', event_text_normalised(coalesce(description, ''))), 'D')
$$;

-- The stored vectors of the events whose text holds such a spelling, computed again by an edit
-- that changes nothing else: the statement's triggers move their postings and statistics (029),
-- and federation and alerts see no change of content.
UPDATE events SET title = title
WHERE concat_ws(' ', title, description, array_to_string(topics || tags || categories, ' '), event_type)
      ~* '[#+]|[.](net|js|ts|io|rs|py)([^[:alnum:]_]|$)';
