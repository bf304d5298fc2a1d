/**
 * A plain BM25 (Okapi: k1 1.2, b 0.75) over the events' title, topics and description as one
 * field, computed here from the stored events, for comparison with the service's rankings. Words
 * are PostgreSQL's English lexemes (the same stemming and stop words as the service), so the
 * comparison is about ranking, not tokenising.
 */
import type { Sql } from "postgres";

const K1 = 1.2;
const B = 0.75;

/** A BM25 index over every stored event; `rank` answers a query with external ids, best first. */
export interface Bm25Index {
  rank(query: string, limit: number): Promise<string[]>;
}

/** Builds the index from the events table. */
export async function bm25Index(sql: Sql): Promise<Bm25Index> {
  const rows = await sql<{ external_id: string; lexeme: string; tf: number }[]>`
    SELECT e.external_id, t.lexeme, cardinality(t.positions) AS tf
    FROM events e,
      unnest(to_tsvector('english', concat_ws(' ', e.title, array_to_string(e.topics, ' '),
                                               e.description))) AS t`;
  const docs = new Map<string, Map<string, number>>();
  const df = new Map<string, number>();
  for (const row of rows) {
    let doc = docs.get(row.external_id);
    if (!doc) docs.set(row.external_id, doc = new Map());
    doc.set(row.lexeme, row.tf);
    df.set(row.lexeme, (df.get(row.lexeme) ?? 0) + 1);
  }
  const lengths = new Map([...docs].map(([id, doc]) => [id, sum([...doc.values()])]));
  const avg = sum([...lengths.values()]) / Math.max(1, docs.size);
  const n = docs.size;
  return {
    async rank(query, limit) {
      const terms = (await sql<{ lexeme: string }[]>`
        SELECT lexeme FROM unnest(to_tsvector('english', ${query}))`).map((r) => r.lexeme);
      const scored: [string, number][] = [];
      for (const [id, doc] of docs) {
        let score = 0;
        for (const term of terms) {
          const tf = doc.get(term);
          if (!tf) continue;
          const d = df.get(term)!;
          const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
          score += idf * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * lengths.get(id)! / avg));
        }
        if (score > 0) scored.push([id, score]);
      }
      scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      return scored.slice(0, limit).map(([id]) => id);
    },
  };
}

function sum(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}
