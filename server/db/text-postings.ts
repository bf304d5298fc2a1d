/**
 * Postings ordered by impact (event_text_postings, migration 029): per lexeme its events by the
 * term's factor at the reference length, best first, as text ranking reads them.
 */
import type { Fragment, Sql } from "postgres";

/**
 * Where a lexeme's postings stand after a stretch: how many are read from the first (`reached`)
 * and the impact of the next one not read (0: none is left).
 */
export interface PostingsBound {
  reached: number;
  cutoff: number;
}

/**
 * A stretch of a lexeme's postings, best first: from position `from` (0-based) up to `to`, those
 * of an impact of `least` or more (a prefix of the stretch).
 */
export interface PostingsStretch {
  lexeme: string;
  from: number;
  to: number;
  least: number;
}

/** Where each stretch's lexeme stands after it is read. */
export async function postingsBounds(
  sql: Sql,
  stretches: PostingsStretch[],
): Promise<Map<string, PostingsBound>> {
  const rows = await sql<({ lexeme: string } & PostingsBound)[]>`
    SELECT l.lexeme, r.reached,
      coalesce((${inOrder(sql, sql`x.impact`, sql`l.lexeme`)} OFFSET r.reached LIMIT 1), 0)
        AS cutoff
    FROM ${stretchList(sql, stretches)},
      LATERAL (SELECT l.first + count(*)::int AS reached FROM (${
    inStretch(sql, sql`x.impact`)
  }) AS s WHERE s.impact >= l.least) AS r`;
  return new Map(rows.map(({ lexeme, ...bound }) => [lexeme, bound]));
}

/**
 * How many of the lexeme's postings have an impact of `least` or more (a prefix of them, best
 * first), counting no further than `most`.
 */
export async function postingsAtLeast(
  sql: Sql,
  o: { lexeme: string; least: number; most: number },
): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM event_text_postings x
      WHERE x.lexeme = ${o.lexeme} AND x.impact >= ${o.least}::float8
      LIMIT ${o.most}
    ) AS s`;
  return row.n;
}

/**
 * A sub-select of the events of the postings stretches, each once (`event_id`). Each stretch is
 * read in the index's order and skipped to by OFFSET, so no posting is read twice in a search.
 */
export function stretchesEvents(sql: Sql, stretches: PostingsStretch[]): Fragment {
  return sql`SELECT DISTINCT s.event_id FROM ${stretchList(sql, stretches)},
    LATERAL (${inStretch(sql, sql`x.event_id, x.impact`)}) AS s
    WHERE s.impact >= l.least`;
}

/** The stretches as a relation `l` (lexeme, first, last, least). */
function stretchList(sql: Sql, stretches: PostingsStretch[]): Fragment {
  return sql`unnest(
      ${stretches.map((s) => s.lexeme)}::text[],
      ${stretches.map((s) => s.from)}::int[],
      ${stretches.map((s) => s.to)}::int[],
      ${stretches.map((s) => s.least)}::float8[]) AS l (lexeme, first, last, least)`;
}

/** The impact of the lexeme `lexeme`'s best posting, or null when no event holds it. */
export function bestImpact(sql: Sql, lexeme: Fragment): Fragment {
  return sql`(${inOrder(sql, sql`x.impact`, lexeme)} LIMIT 1)`;
}

/** A lexeme's postings (of `lexeme`), best first, as the order index keeps them. */
function inOrder(sql: Sql, column: Fragment, lexeme: Fragment): Fragment {
  return sql`SELECT ${column} FROM event_text_postings x WHERE x.lexeme = ${lexeme}
    ORDER BY x.impact DESC, x.event_id`;
}

/** The postings of the stretch `l` (from `l.first` up to `l.last`), best first. */
function inStretch(sql: Sql, columns: Fragment): Fragment {
  return sql`${inOrder(sql, columns, sql`l.lexeme`)} OFFSET l.first LIMIT l.last - l.first`;
}
