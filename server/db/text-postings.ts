/**
 * The best postings of lexemes (event_text_postings, migration 029): per lexeme its events by the
 * term's factor at the reference length, best first, as text ranking reads them.
 */
import type { Sql } from "postgres";

/**
 * The first `count` postings of a lexeme, the impact of the first (0: none) and of the next one
 * (0: none is left).
 */
export interface PostingsRead {
  ids: string[];
  top: number;
  cutoff: number;
}

/** The first `count` postings of each lexeme. */
export async function bestPostings(
  sql: Sql,
  lexemes: string[],
  count: number,
): Promise<Map<string, PostingsRead>> {
  const rows = await sql<{ lexeme: string; ids: string[]; impacts: number[] }[]>`
    SELECT l.lexeme, array_agg(p.event_id ORDER BY p.impact DESC, p.event_id) AS ids,
           array_agg(p.impact ORDER BY p.impact DESC, p.event_id) AS impacts
    FROM unnest(${lexemes}::text[]) AS l(lexeme)
    JOIN LATERAL (
      SELECT x.event_id, x.impact FROM event_text_postings x
      WHERE x.lexeme = l.lexeme
      ORDER BY x.impact DESC, x.event_id
      LIMIT ${count + 1}
    ) AS p ON true
    GROUP BY l.lexeme`;
  const read = new Map<string, PostingsRead>(
    lexemes.map((l) => [l, { ids: [], top: 0, cutoff: 0 }]),
  );
  for (const r of rows) {
    read.set(r.lexeme, {
      ids: r.ids.slice(0, count),
      top: r.impacts[0] ?? 0,
      cutoff: r.ids.length > count ? r.impacts[count] : 0,
    });
  }
  return read;
}
