/**
 * The weighted term frequencies of lexemes in events within the filters, read from the events'
 * tsvectors: ts_rank_cd of one lexeme with the field weights is the sum of its occurrences' weights
 * (each occurrence is a cover of its own), the weighted frequency event_text_tf defines.
 *
 * These readers do not collapse duplicate groups: the ranking asks which of its best events are
 * hidden (hiddenOf) only for the few that may make its page, not for every event it scores.
 */
import type { Fragment, Sql } from "postgres";
import {
  type EventFilters,
  filterConditions,
  keepsEveryEvent,
  shownCollapsed,
} from "./event-filters.ts";
import { plannedRows } from "./filter-estimate.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import { type PostingsStretch, stretchesEvents } from "./text-postings.ts";
import { B, K1 } from "./text-bm25.ts";
import type { TextWord } from "./text-terms.ts";

/** An event within the filters with its lexemes' frequencies. */
export interface EventLexemes {
  id: string;
  starts_at: Date;
  length: number;
  /** Per lexeme asked for, in order. */
  tfs: number[];
}

/**
 * The best `top` events of the postings stretches within the filters by BM25F, best first (score,
 * start, id), with the frequencies of `lexemes`; one more when the stretches hold more, so that the
 * caller knows. The postings are read where the events are, so their ids never travel to the
 * server and back (thousands of ids sent as a parameter cost more than reading their events), and
 * the database scores them: a round's thousand events cost the client more to receive than the
 * server to score, and only the best can make the page (the best `top` of all the rounds are among
 * each round's best `top`).
 */
export async function bestOfStretches(
  sql: Sql,
  o: {
    stretches: PostingsStretch[];
    lexemes: string[];
    filters: Omit<EventFilters, "q">;
    scoring: TextScoring;
    top: number;
  },
): Promise<EventLexemes[]> {
  if (o.stretches.length === 0) return [];
  // OFFSET 0 keeps the frequencies computed once per event, not again in the score.
  return await sql<EventLexemes[]>`
    SELECT h.id, h.starts_at, h.length, ${tfsArray(sql, o.lexemes, "h")} AS tfs FROM (
      SELECT ${scoredColumns(sql, o)}
      FROM (${stretchesEvents(sql, o.stretches)}) AS i JOIN events e ON e.id = i.event_id
      WHERE ${filterConditions(sql, { ...o.filters, collapse: false })}
      OFFSET 0
    ) AS h
    ORDER BY ${scoreInSql(sql, o.scoring, o.lexemes)} DESC, h.starts_at, h.id
    LIMIT ${o.top + 1}`;
}

/**
 * Which of the events `ids` (within the filters) are hidden behind their group's shown listing
 * (EventFilters.collapse), for a ranking of the words `lexemes`.
 */
export async function hiddenOf(
  sql: Sql,
  o: { ids: string[]; lexemes: string[]; filters: Omit<EventFilters, "q"> },
): Promise<Set<string>> {
  if (o.ids.length === 0 || o.filters.collapse === false) return new Set();
  // From the group members among the ids: an event in no group (most, often all) is only looked
  // up in the index of members, never read.
  const rows = await sql<{ id: string }[]>`
    SELECT e.id FROM event_group_members m JOIN events e ON e.id = m.event_id
    WHERE m.event_id = ANY(${o.ids}::uuid[]) AND NOT m.canonical
      AND ${hides(sql, o)}`;
  return new Set(rows.map((r) => r.id));
}

/** On `e` (its id only): the event is hidden behind its group's shown listing (hiddenOf). */
function hides(sql: Sql, o: { lexemes: string[]; filters: Omit<EventFilters, "q"> }): Fragment {
  return sql`NOT ${shownCollapsed(sql, { ...o.filters, collapseLexemes: o.lexemes })}`;
}

/** How the events of a query score (text-bm25.ts): its words, their idfs and the mean length. */
export interface TextScoring {
  words: TextWord[];
  idfs: number[];
  meanLength: number;
}

/**
 * The best events holding words of a query, and whether more hold them. Where the filters
 * collapse duplicate groups, each event says whether it is hidden (hiddenOf): a page of them
 * then needs no statement more.
 */
export interface BestHolders {
  events: (EventLexemes & { hidden?: boolean })[];
  /** More events than these hold them. */
  more: boolean;
}

/**
 * How many events within the filters the planner expects to hold every word of `every` (a word
 * held where all its parts are, or one of its whole spellings). It takes the words as held
 * independently ("machine & learning" at 100,000 events: 14.3% and 80.6% of events hold each,
 * 11,373 expected, 14,262 hold both) and weighs the filters' share the same way.
 */
export async function plannedHolders(
  sql: Sql,
  o: { every: TextWord[]; filters: Omit<EventFilters, "q"> },
): Promise<number> {
  return await plannedRows(sql, holding(sql, o));
}

/**
 * The best `top` events by BM25F within the filters holding one of `lexemes`, or every word of
 * `every` when given, with the frequencies of `lexemes`, best first (score, start, id). The
 * database scores them: a few thousand holders' frequencies cost the client more to receive than
 * the server to compute. With `most`, null when more than twice as many such events are found
 * (the caller asks plannedHolders first).
 */
export async function bestHolders(
  sql: Sql,
  o: {
    lexemes: string[];
    filters: Omit<EventFilters, "q">;
    scoring: TextScoring;
    top: number;
    every?: TextWord[];
    most?: number;
  },
): Promise<BestHolders | null> {
  if (o.lexemes.length === 0) return { events: [], more: false };
  const where = holding(sql, o);
  // OFFSET 0 keeps the frequencies computed once per event, not again in the score. Whether an
  // event is hidden is asked of the best only, outside (in any order: the caller ranks them).
  const hidden = o.filters.collapse === false ? sql`` : sql`, ${hides(sql, o)} AS hidden`;
  const holders = sql`SELECT ${scoredColumns(sql, o)} FROM events e WHERE ${where}`;
  const score = scoreInSql(sql, o.scoring, o.lexemes);
  // With `most`, the holder found after twice as many (2 most + 1 in the order read, numbered
  // as they stream: a count over them all would keep every holder until the last) is sorted
  // first, and says that too many hold them.
  const best = o.most === undefined
    ? sql`SELECT h.*, false AS over FROM (${holders} OFFSET 0) AS h
      ORDER BY ${score} DESC, h.starts_at, h.id`
    : sql`SELECT h.*, h.n > ${2 * o.most} AS over FROM (
        SELECT h.*, row_number() OVER () AS n
        FROM (${holders} LIMIT ${2 * o.most + 1} OFFSET 0) AS h
      ) AS h
      ORDER BY h.n > ${2 * o.most} DESC, ${score} DESC, h.starts_at, h.id`;
  const statement = sql<(BestHolders["events"][number] & { over: boolean })[]>`
    SELECT e.id, e.starts_at, e.length, ${tfsArray(sql, o.lexemes, "e")} AS tfs, e.over${hidden}
    FROM (${best} LIMIT ${o.top + 1}) AS e`;
  // Where the filters keep every event, the text index is the only one its condition can use,
  // whatever the words: the statement is prepared and its plan kept (planning it took about 3 ms
  // on the embedded database). Filters may make another index the better one for some values.
  const rows = await (keepsEveryEvent(o.filters) ? statement : plannedWithValues(statement));
  if (rows[0]?.over) return null;
  return {
    events: rows.slice(0, o.top).map(({ over: _, ...event }) => event),
    more: rows.length > o.top,
  };
}

/**
 * BM25F of the row `h` of scoredColumns (text-bm25.ts's scoreOf, the same operations in the same
 * order, so that the database and the ranking agree to the bit): per word of a non-zero idf,
 * idf x tf (k1 + 1) / (tf + norm), summed in the words' order. A word the event lacks adds
 * idf x 0 / norm, which is 0 (norm is positive): scoreOf skips it, and x + 0 is x.
 */
function scoreInSql(sql: Sql, scoring: TextScoring, lexemes: string[]): Fragment {
  const tf = (l: string) => {
    const at = lexemes.indexOf(l);
    return at < 0 ? sql`0::float8` : sql`h.${sql(tfColumn(at))}`;
  };
  return scoring.words.reduce((score, word, i) => {
    if (scoring.idfs[i] === 0) return score;
    const parts = word.parts.length === 0
      ? sql`0::float8`
      : word.parts.length === 1
      ? tf(word.parts[0])
      : sql`LEAST(${listed(sql, word.parts.map(tf))})`;
    const frequency = word.wholes.reduce((sum, l) => sql`(${sum} + ${tf(l)})`, parts);
    return sql`(${score} + ${scoring.idfs[i]}::float8 * (${frequency} * ${
      K1 + 1
    }::float8 / (${frequency} + h.norm)))`;
  }, sql`0::float8`);
}

/**
 * On `e`, what its score needs: id, starts_at, length, each lexeme's weighted frequency (t1, t2,
 * ... in the order of `lexemes`) and BM25's length norm, k1 (1 - b + b len / mean), which every
 * word's factor shares. Columns, not an array: a subscript per use cost the database more than
 * the rest of the arithmetic.
 */
function scoredColumns(sql: Sql, o: { lexemes: string[]; scoring: TextScoring }): Fragment {
  const mean = Math.max(o.scoring.meanLength, 1);
  const norm = sql`${K1}::float8 * (${
    1 - B
  }::float8 + ${B}::float8 * length(e.search_vector) / ${mean}::float8)`;
  return o.lexemes.reduce(
    (columns, l, i) => sql`${columns}, ${tfOf(sql, l)} AS ${sql(tfColumn(i))}`,
    sql`e.id, e.starts_at, length(e.search_vector) AS length, ${norm} AS norm`,
  );
}

/** The frequencies of scoredColumns' row `row` as an array, in the order of `lexemes`. */
function tfsArray(sql: Sql, lexemes: string[], row: "e" | "h"): Fragment {
  if (lexemes.length === 0) return sql`'{}'::float8[]`;
  return sql`ARRAY[${listed(sql, lexemes.map((_, i) => sql`${sql(row)}.${sql(tfColumn(i))}`))}]`;
}

/** The name of scoredColumns' column of the frequency of the `i`-th lexeme (0-based). */
function tfColumn(i: number): string {
  return `t${i + 1}`;
}

/** The fragments (at least one) separated by commas. */
function listed(sql: Sql, fragments: Fragment[]): Fragment {
  return fragments.slice(1).reduce((list, f) => sql`${list}, ${f}`, fragments[0]);
}

/**
 * On `e`: within the filters, and holding every word of `every`, or (without it) one of `lexemes`.
 */
function holding(
  sql: Sql,
  o: { lexemes?: string[]; every?: TextWord[]; filters: Omit<EventFilters, "q"> },
): Fragment {
  const held = o.every === undefined
    ? (o.lexemes ?? []).map(lexemeQuery).join(" | ")
    : o.every.map((w) =>
      `(${[w.parts.map(lexemeQuery).join(" & "), ...w.wholes.map(lexemeQuery)].join(" | ")})`
    ).join(" & ");
  return sql`e.search_vector @@ ${held}::tsquery
    AND ${filterConditions(sql, { ...o.filters, collapse: false })}`;
}

/** A lexeme as a tsquery of that lexeme alone. */
function lexemeQuery(lexeme: string): string {
  return `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** The weighted frequency of `lexeme` in `e` (event_text_tf). */
function tfOf(sql: Sql, lexeme: string): Fragment {
  // Weights {D, C, B, A} at half event_text_tf's (ts_rank_cd takes none above 1): description and
  // place 1, labels 1.5, title 2.
  return sql`2 * ts_rank_cd('{0.5,0.5,0.75,1}'::float4[], e.search_vector, ${
    lexemeQuery(lexeme)
  }::tsquery, 0)::float8`;
}
