/**
 * Candidates for text ranking drawn by relevance: every event within the filters that holds one
 * of the query's rarest words. BM25 gives a rare word most of an event's score, so its matches are
 * where the best events are; the soonest matches of the tiers (server/db/soonest-matches.ts) are
 * where they are only when the words are common.
 *
 * Bounded by the statistics: words are taken rarest first while the events holding them add up to
 * at most `budget` (server/db/text-query.ts says how many hold each word), and the statement stops
 * at `budget` rows in any case, so a word that grew common since the statistics were counted
 * costs no more than that.
 */
import type { Sql } from "postgres";
import { type EventFilters, filterConditions } from "./event-filters.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import type { RankWord } from "./text-query.ts";
import { type ScoreParts, type ScoreWords, withScoreParts } from "./text-score-parts.ts";

/** An event holding a rare word, with its score parts. */
export interface RareMatch extends ScoreParts {
  id: string;
  starts_at: Date;
}

/** The rarest meaningful words whose events add up to at most `budget`, rarest first. */
export function rarestWords(words: RankWord[], budget: number): RankWord[] {
  const known = words
    .filter((w): w is RankWord & { docs: number } => w.meaningful && (w.docs ?? 0) > 0)
    .sort((a, b) => a.docs - b.docs);
  const taken: RankWord[] = [];
  let events = 0;
  for (const word of known) {
    if (events + word.docs > budget) break;
    taken.push(word);
    events += word.docs;
  }
  return taken;
}

/** The events within the filters holding any of `words` (at most `budget`), with score parts. */
export async function rareWordMatches(
  sql: Sql,
  o: { words: RankWord[]; filters: Omit<EventFilters, "q">; budget: number; score: ScoreWords },
): Promise<RareMatch[]> {
  if (o.words.length === 0) return [];
  const any = o.words.map((w) => `(${w.word})`).join(" | ");
  // Sorted by a start time no index serves, so that the planner collects the matches from the GIN
  // index rather than reading events in some order until `budget` match: a word it has no
  // statistics for looks common at a million events, and if it occurs nowhere that read would
  // go through every event (server/db/migrations/009_text_tiers_present.sql). Planned with the
  // words, so that it sees how rare they are.
  const found = sql`
    SELECT e.id, e.starts_at, e.search_vector AS text FROM events e
    WHERE ${filterConditions(sql, { ...o.filters, collapseMatch: any })}
      AND e.search_vector @@ ${any}::tsquery
    ORDER BY (e.starts_at + interval '0 seconds'), e.id
    LIMIT ${o.budget}`;
  return await plannedWithValues(sql<RareMatch[]>`${withScoreParts(sql, found, o.score)}`);
}
