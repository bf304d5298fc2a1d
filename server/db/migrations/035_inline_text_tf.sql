-- The term frequency of a posting as one expression the planner inlines, in place of a sum over
-- unnest(weights): the subquery made each of a batch's postings (about 57 an event) a function
-- call, and event_text_factor, which reads tf twice, was then not inlined either. Inserting the
-- postings of 100 events took 20 ms, now 6 (PostgreSQL 15, 2,311 postings). The values are the
-- same to the bit (weights 2, 1.5 and 1 are dyadic), so stored impacts still find their postings.
CREATE OR REPLACE FUNCTION event_text_tf(weights text[]) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (cardinality(weights) + cardinality(array_positions(weights, 'A'))
          + 0.5 * cardinality(array_positions(weights, 'B')))::float8
$$;
