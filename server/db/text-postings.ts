/**
 * Postings ordered by impact (event_text_postings, migration 029): per lexeme its events by the
 * term's factor at the reference length, best first, as text ranking reads them.
 */
import type { Fragment, Sql } from "postgres";

/**
 * Where a lexeme's postings stand after a stretch: how many are read from the first (`reached`),
 * and the impact and event of the next one not read (`cutoff` 0 and no `next`: none is left).
 */
export interface PostingsBound {
  reached: number;
  cutoff: number;
  next: string | null;
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
    SELECT l.lexeme, r.reached, coalesce(n.impact, 0) AS cutoff, n.event_id AS next
    FROM ${stretchList(sql, stretches)}
    CROSS JOIN LATERAL (SELECT l.first + count(*)::int AS reached FROM (${
    inStretch(sql, sql`x.impact`)
  }) AS s WHERE s.impact >= l.least) AS r
    LEFT JOIN LATERAL (${
    inOrder(sql, sql`x.impact, x.event_id`, sql`l.lexeme`)
  } OFFSET r.reached LIMIT 1) AS n ON true`;
  return new Map(rows.map(({ lexeme, ...bound }) => [lexeme, bound]));
}

/**
 * For each lexeme, how many of its postings not yet read (from `bound`'s next one on, best first)
 * have an impact of `least` or more, counting no further than `most`; in the order given, in one
 * statement. Only the postings counted are read: the index is entered at the next one.
 */
export async function postingsAtLeast(
  sql: Sql,
  asked: { lexeme: string; bound: PostingsBound; least: number; most: number }[],
): Promise<number[]> {
  if (asked.length === 0) return [];
  // The postings from the next one on, in the index's order (impact descending, then event):
  // those of its impact from its event on, then those of lower impacts. The impact is compared
  // as the real it is stored as (its shortest text, read back as a double, is another number).
  const rows = await sql<{ n: number }[]>`
    SELECT (SELECT count(*)::int FROM (
      (SELECT 1 FROM event_text_postings x
       WHERE x.lexeme = a.lexeme AND x.impact = a.cutoff AND x.event_id >= a.next
         AND x.impact >= a.least
       LIMIT a.most)
      UNION ALL
      (SELECT 1 FROM event_text_postings x
       WHERE x.lexeme = a.lexeme AND x.impact < a.cutoff AND x.impact >= a.least
       LIMIT a.most)
      LIMIT a.most
    ) AS s) AS n
    FROM unnest(${asked.map((a) => a.lexeme)}::text[],
      ${asked.map((a) => a.bound.cutoff)}::real[], ${asked.map((a) => a.bound.next)}::uuid[],
      ${asked.map((a) => a.least)}::float8[], ${asked.map((a) => a.most)}::int[])
      WITH ORDINALITY AS a (lexeme, cutoff, next, least, most, at)
    ORDER BY a.at`;
  return rows.map((r) => r.n);
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
