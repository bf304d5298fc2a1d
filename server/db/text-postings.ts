/**
 * Postings ordered by impact (event_text_postings, migration 029): per lexeme its events by the
 * term's factor at the reference length, best first, as text ranking reads them.
 */
import type { Fragment, Sql } from "postgres";

/**
 * Where a lexeme's postings stand after its first `count`: the impact of the first (0: none) and
 * of the next one (0: none is left).
 */
export interface PostingsBound {
  top: number;
  cutoff: number;
}

/** A stretch of a lexeme's postings, best first: from position `from` (0-based) up to `to`. */
export interface PostingsStretch {
  lexeme: string;
  from: number;
  to: number;
}

/** The top and the cutoff of each lexeme after its first `count` postings. */
export async function postingsBounds(
  sql: Sql,
  counts: Map<string, number>,
): Promise<Map<string, PostingsBound>> {
  const rows = await sql<{ lexeme: string; top: number; cutoff: number }[]>`
    SELECT l.lexeme,
      coalesce((${inOrder(sql, sql`x.impact`)} LIMIT 1), 0) AS top,
      coalesce((${inOrder(sql, sql`x.impact`)} OFFSET l.count LIMIT 1), 0) AS cutoff
    FROM unnest(${[...counts.keys()]}::text[], ${[...counts.values()]}::int[]) AS l(lexeme, count)`;
  return new Map(rows.map((r) => [r.lexeme, { top: r.top, cutoff: r.cutoff }]));
}

/**
 * A sub-select of the events of the postings stretches, each once (`event_id`). Each stretch is
 * read in the index's order and skipped to by OFFSET, so no posting is read twice in a search.
 */
export function stretchesEvents(sql: Sql, stretches: PostingsStretch[]): Fragment {
  return sql`SELECT DISTINCT s.event_id FROM unnest(
      ${stretches.map((s) => s.lexeme)}::text[],
      ${stretches.map((s) => s.from)}::int[],
      ${stretches.map((s) => s.to)}::int[]) AS l(lexeme, first, last),
    LATERAL (${
    inOrder(sql, sql`x.event_id`)
  } OFFSET l.first LIMIT l.last - l.first) AS s(event_id)`;
}

/** A lexeme's postings (of `l.lexeme`), best first, as the order index keeps them. */
function inOrder(sql: Sql, column: Fragment): Fragment {
  return sql`SELECT ${column} FROM event_text_postings x WHERE x.lexeme = l.lexeme
    ORDER BY x.impact DESC, x.event_id`;
}
