/**
 * The text ranking as event ids: exactly the best `limit` events by BM25F (server/db/text-bm25.ts)
 * among every event within the filters that holds a word of the query, ties by start time, then
 * id. Whole events are built by the caller, for the page it keeps only.
 *
 * The threshold algorithm over postings ordered by impact (event_text_postings, migration 029):
 * read the best postings of each of the query's lexemes, score their events exactly, and stop when
 * the page's last score beats what any event outside those postings could score (the postings not
 * read bound each word's factor); otherwise read twice as many of the word whose unread postings
 * could add the most. The database scores each round's events and sends its best only (a round
 * of a common word's flat postings is a thousand events, which cost more to send than to score).
 * Filters that keep few events are scored whole instead: every event they keep that holds a word.
 *
 * Where the words weigh alike (each can add about as much as the others), the events holding
 * them all are scored whole first (bestHolders), and that page stands when its last score is
 * more than an event missing any word can score: the flat postings of such words would take
 * rounds to say so.
 *
 * Where postings are flat (thousands of events with nearly the same factor for each word), the
 * bound falls slowly. The page found so far then also says which words every better event must
 * hold: a word whose absence caps an event below the page's last score, however high its other
 * words' factors. When few events hold all such words, they are scored whole at once: every event
 * outside them scores less than the page already holds. The database scores them and sends the
 * best only (bestHolders).
 *
 * Collapsing duplicate groups is asked of the ranking's best events only, as the page needs
 * them: a hidden event is skipped and the next one taken, so the page is the best `limit` events
 * that show, and events in no group (most) cost nothing more.
 */
import type { Sql } from "postgres";
import { type EventFilters, keepsEveryEvent } from "./event-filters.ts";
import { estimatedEvents } from "./filter-estimate.ts";
import {
  boundOutside,
  factorBound,
  scoreOf,
  unheldIdf,
  wordDocs,
  wordFrequency,
  wordIdf,
} from "./text-bm25.ts";
import {
  bestHolders,
  bestOfStretches,
  type EventLexemes,
  hiddenOf,
  plannedHolders,
} from "./text-frequencies.ts";
import {
  postingsAtLeast,
  type PostingsBound,
  postingsBounds,
  type PostingsStretch,
} from "./text-postings.ts";
import { type TextTerms, textTermsOf, type TextWord } from "./text-terms.ts";

/** An event of a ranking, by id, with its score there. */
export interface Match {
  id: string;
  score: number;
}

/** An event of the text ranking. */
export interface TextMatch extends Match {
  /** Whether the event holds every word of the query that some event holds. */
  everyWord: boolean;
  /** The share of the query's words the event holds, each word counting its idf (0-1). */
  coverage: number;
  /**
   * The share of the query's idf that some stored event holds (the same for every match of a
   * query): a word no event holds counts at the idf of a word one event in the whole store would
   * hold. Below 1, `everyWord` and `coverage` speak of the words the store knows only.
   */
  known: number;
}

/** Postings read per lexeme first, at least: a page and some room for the filters. */
const FIRST_READ = 64;
/** Filters the planner expects to keep at most this many events are scored whole. */
const FEW_KEPT = 4_000;
/** A round reads at most this many times the postings of its word read so far, */
const GROWTH_AT_ONCE = 4;
/**
 * or every posting left above the impact that closes the bound, where no more than this many are
 * left (a round of that many events costs about what two rounds of statements do).
 */
const AT_ONCE = 2_048;

/** How the page is found (not what it is): the defaults are what search uses. */
export interface TextMatchWays {
  /** Postings read per lexeme in the first round (then twice as many each round). */
  firstRead?: number;
  /** Filters the planner expects to keep at most this many events are scored whole. */
  fewKept?: number;
  /** Events the database sends first where it scores holders whole (then four times as many). */
  holdersRead?: number;
  /** Postings left above the bound's impact that a round reads all at once, at most. */
  atOnce?: number;
}

/** The best `limit` text matches of `query` within the filters, `score` being BM25F. */
export async function textMatches(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
  ways: TextMatchWays = {},
): Promise<TextMatch[]> {
  const terms = await textTermsOf(sql, query);
  const idfs = terms.words.map((w) => wordIdf(w, terms));
  if (limit <= 0 || idfs.every((idf) => idf === 0)) return [];
  const lexemes = [
    ...new Set(
      terms.words.flatMap((w, i) => idfs[i] === 0 ? [] : [...w.parts, ...w.wholes]),
    ),
  ];
  const rank = (events: Iterable<EventLexemes>) => ranked(events, { terms, idfs, lexemes });
  const hidden = new Map<string, boolean>();
  const pageOf = (ranking: TextMatch[]) =>
    shownFirst(ranking, limit, hidden, (ids) => hiddenOf(sql, { ids, lexemes, filters }));
  const scoring = { words: terms.words, idfs, meanLength: terms.meanLength };
  const keepsAll = keepsEveryEvent(filters);
  // Some word of `every` is held by at most `most` events: no more hold them all.
  const someHeldByFew = (every: TextWord[], most: number) =>
    Math.min(...every.map((w) => wordDocs(w, terms))) <= most;
  // Whether more than `most` events hold every word of `every`, as expected: where the filters
  // keep every event, from the words' statistics as if held independently (the planner's own
  // reckoning for a conjunction, from counts less exact than ours, and a statement less: on the
  // embedded database planning one took 1.4-3 ms); otherwise by the planner, which also weighs
  // the filters. No estimate is asked where some word is held by fewer.
  const expectsTooMany = async (every: TextWord[], most: number) => {
    if (someHeldByFew(every, most)) return false;
    const expected = keepsAll
      ? every.reduce((n, w) => n * Math.min(1, wordDocs(w, terms) / terms.events), terms.events)
      : await plannedHolders(sql, { every, filters });
    return expected > most;
  };
  // The page of the best holders, read again for more while hidden events leave it short; null
  // when more than `most` events hold every word of `every` (`expected`: as expectsTooMany has
  // already said they do not).
  const holdersPage = async (every?: TextWord[], most?: number, expected = false) => {
    if (every !== undefined && most !== undefined) {
      if (!expected && await expectsTooMany(every, most)) return null;
      // No more than `most` hold them all: none need be counted.
      if (someHeldByFew(every, most)) most = undefined;
    }
    for (let top = ways.holdersRead ?? limit * 2 + 8;; top *= 4) {
      const best = await bestHolders(sql, { lexemes, filters, scoring, top, every, most });
      if (best === null) return null;
      for (const e of best.events) if (e.hidden !== undefined) hidden.set(e.id, e.hidden);
      const page = await pageOf(rank(best.events));
      if (page.length >= limit || !best.more) return page;
    }
  };
  const few = ways.fewKept ?? FEW_KEPT;
  if (await keepsFew(sql, filters, few)) return (await holdersPage())!;
  // The most each word can add to an event's score (its best posting's factor), and in all.
  const best = terms.words.map((word, i) =>
    idfs[i] === 0 ? 0 : boundOutside([word], {
      idfs: [idfs[i]],
      meanLength: terms.meanLength,
      cutoff: (l) => terms.tops.get(l) ?? 0,
    })
  );
  const total = best.reduce((a, b) => a + b, 0);
  /**
   * The words every event scoring at least `floor` holds: those without which the most the other
   * words can add stays below it. None for a page not full.
   */
  const requiredWords = (floor: number) =>
    terms.words.filter((_, i) => idfs[i] > 0 && total - best[i] < floor);
  // How many words the last try of the conjunction required (more required: fewer events), and
  // how many holders it allowed.
  let requiredTried = 0;
  let allowedTried = 0;
  // Words that weigh alike (none adds less than half its share of the most an event can score):
  // events holding them all are then nearly always the page, and the flat postings of such words
  // would take rounds to say so. Their best holders are scored at once; the page stands when its
  // last score requires every word, and the rounds below find it otherwise.
  const weighed = terms.words.filter((_, i) => idfs[i] > 0);
  const weakest = Math.min(...best.filter((_, i) => idfs[i] > 0));
  if (weighed.length > 1 && weakest * 2 * weighed.length >= total) {
    [requiredTried, allowedTried] = [weighed.length, few];
    const page = await holdersPage(weighed, few);
    if (page !== null && requiredWords(lastScore(page, limit)).length === weighed.length) {
      return page;
    }
  }
  // A conjunction allows as many holders as the rounds will have read postings after the next
  // round, FEW_KEPT at least. Scoring a holder costs about what reading a posting's event does:
  // the holders are scored, and the search ends, instead of a round that would bring the rounds'
  // cost to about that (flat postings of common words at 1,000,000 events otherwise took ten
  // rounds, 1.4 s).

  // Each round's best `kept` events, scored by the database (the best `kept` of all the rounds
  // are among them), and whether a round held more: the ranking is then exact for its first
  // `kept` events only.
  const scored = new Map<string, EventLexemes>();
  let kept = limit * 2 + 8;
  let cut = false;
  const keep = (found: EventLexemes[]) => {
    if (found.length > kept) cut = true;
    for (const e of found.slice(0, kept)) if (!scored.has(e.id)) scored.set(e.id, e);
  };
  const first = ways.firstRead ?? Math.max(FIRST_READ, limit * 4);
  // Where each lexeme's postings stand after the rounds so far.
  const read = new Map<string, PostingsBound>();
  // The page of the rounds so far: where hidden events leave it short of the exact prefix, every
  // posting read is scored again for four times as many.
  const roundsPage = async () => {
    for (;;) {
      const ranking = rank(scored.values());
      const page = await pageOf(cut ? ranking.slice(0, kept) : ranking);
      if (page.length >= limit || !cut) return page;
      [kept, cut] = [kept * 4, false];
      scored.clear();
      const stretches = [...read].map(([lexeme, r]) => ({
        lexeme,
        from: 0,
        to: r.reached,
        least: 0,
      }));
      keep(await bestOfStretches(sql, { stretches, lexemes, filters, scoring, top: kept }));
    }
  };
  const firstRound = lexemes.map((lexeme) => ({ lexeme, from: 0, to: first, least: 0 }));
  for (let stretches = firstRound; stretches.length > 0;) {
    const [bounds, found] = await Promise.all([
      postingsBounds(sql, stretches),
      bestOfStretches(sql, { stretches, lexemes, filters, scoring, top: kept }),
    ]);
    for (const [l, b] of bounds) read.set(l, b);
    keep(found);
    const ranking = rank(scored.values());
    if ([...read.values()].every((r) => r.cutoff === 0)) return await roundsPage();
    // The last score before collapse is at least the page's (hidden events only move later ones
    // up): which events are hidden is asked only when that score would end the search or require
    // more words than tried, never in a round that goes on anyway. The next round may then read
    // less than the page needs, never more: the bound still decides when to stop.
    const outside = bound();
    let page: TextMatch[] | null = null;
    let last = lastScore(ranking, limit);
    if (last > outside) {
      page = await roundsPage();
      last = lastScore(page, limit);
      if (last > outside) return page;
    }
    // The next round, read unless the words the page requires are held by no more events than
    // the rounds will then have read postings.
    stretches = await toGrow(Math.max(last, 0));
    const reading = [...read.values()].reduce((sum, r) => sum + r.reached, 0) +
      stretches.reduce((sum, s) => sum + s.to - s.from, 0);
    const allowed = Math.max(few, reading);
    // Tried again once more words are required, or twice as many holders allowed.
    const tryAgain = (required: number) =>
      required > requiredTried || (required > 0 && allowed >= 2 * allowedTried);
    let every = requiredWords(last);
    if (!tryAgain(every.length)) continue;
    // The words the page requires (hidden events skipped) are among these, and fewer words are
    // held by no fewer events: where too many are expected to hold these, so they are of the
    // page's, and the page need not be found to say so.
    let expected = false;
    if (page === null) {
      if (await expectsTooMany(every, allowed)) {
        [requiredTried, allowedTried] = [every.length, allowed];
        continue;
      }
      const shown = requiredWords(lastScore(await roundsPage(), limit));
      expected = shown.length === every.length;
      every = shown;
    }
    if (tryAgain(every.length)) {
      [requiredTried, allowedTried] = [every.length, allowed];
      const page = await holdersPage(every, allowed, expected);
      if (page !== null) return page;
    }
  }
  return await roundsPage();

  function cutoff(l: string): number {
    return read.get(l)?.cutoff ?? 0;
  }

  function bound(): number {
    return boundOutside(terms.words, { idfs, meanLength: terms.meanLength, cutoff });
  }

  /**
   * The next round's postings: of the word whose unread postings could add the most (reading a
   * common word's flat list further lowers the bound little and brings many events to score),
   * twice as many as read so far. Where that word is one lexeme and the page is full, instead as
   * many as lower the bound under the page's last score (`floor`), by whichever plan reads fewer
   * postings: that word alone, down to the impact below which the bound falls under the floor,
   * or, where every open word is one lexeme, all of them, each lowering the bound by an equal
   * share. Alone, a word reads a plateau of equal impacts to its end; shared, flat lists are read
   * far less deep (at 1,000,000 events, "typescript berlin" read 7,417 postings in all with
   * berlin alone, 2,415 shared). The plan is read at once where no word of it has more than AT_ONCE
   * postings to read (such a round closes the bound); otherwise the word that could add the most
   * reads GROWTH_AT_ONCE times as many: the rounds doubling towards it would read the same
   * postings, each round costing a few statements (but the page's last score may rise meanwhile,
   * which a round too large does not use: docs/decisions.md).
   */
  async function toGrow(floor: number): Promise<PostingsStretch[]> {
    const open = terms.words.flatMap((word, i) => {
      const lexemes = [...word.parts, ...word.wholes];
      if (idfs[i] === 0 || !lexemes.some((l) => cutoff(l) > 0)) return [];
      const adds = boundOutside([word], { idfs: [idfs[i]], meanLength: terms.meanLength, cutoff });
      return [{ i, lexemes, adds }];
    });
    if (open.length === 0) return [];
    const grown = open.reduce((a, b) => b.adds > a.adds ? b : a);
    const doubled = (lexeme: string) => {
      const from = read.get(lexeme)!.reached;
      return { lexeme, from, to: from * 2, least: 0 };
    };
    if (floor <= 0 || grown.lexemes.length > 1) {
      return grown.lexemes.filter((l) => cutoff(l) > 0).map(doubled);
    }
    // Each open word lowering what it can add by `fall`: the least impact to read down to.
    const need = bound() - floor;
    const lowered = (w: typeof open[number], fall: number) => {
      const lexeme = w.lexemes[0];
      const least = leastImpact((w.adds - fall) / idfs[w.i], terms.meanLength, cutoff(lexeme));
      return { lexeme, bound: read.get(lexeme)!, least };
    };
    const plans = [[lowered(grown, need)]];
    // A word of several lexemes can add what its least part allows: reading one part may not
    // lower that, so the fall is shared only among words of one lexeme each.
    if (open.length > 1 && open.every((w) => w.lexemes.length === 1)) {
      plans.push(open.map((w) => lowered(w, need / open.length)));
    }
    const atOnce = ways.atOnce ?? AT_ONCE;
    const counts = await postingsAtLeast(
      sql,
      plans.flat().map((s) => ({ ...s, most: atOnce + 1 })),
    );
    let best: PostingsStretch[] | null = null;
    let fewest = Infinity;
    let at = 0;
    for (const plan of plans) {
      const stretches = plan.map(({ lexeme, bound, least }) => {
        const from = bound.reached;
        return { lexeme, from, to: from + Math.max(counts[at++], 1), least };
      });
      if (stretches.some((s) => s.to - s.from > atOnce)) continue;
      const reads = stretches.reduce((n, s) => n + s.to - s.from, 0);
      if (reads < fewest) [best, fewest] = [stretches, reads];
    }
    if (best !== null) return best;
    // The word alone (the first plan), GROWTH_AT_ONCE times as many as it read.
    const [{ lexeme, bound: { reached }, least }] = plans[0];
    return [{ lexeme, from: reached, to: reached * GROWTH_AT_ONCE, least }];
  }
}

/**
 * The least impact whose factor bound (factorBound at the mean length `mean`) reaches `factor`,
 * a little less for the float4 impacts are stored in; at most `cutoff`, where the bound already
 * stands.
 */
function leastImpact(factor: number, mean: number, cutoff: number): number {
  if (factor <= 0) return 0;
  let [low, high] = [0, cutoff];
  for (let i = 0; i < 40; i++) {
    const middle = (low + high) / 2;
    if (factorBound(middle, mean) >= factor) high = middle;
    else low = middle;
  }
  return low * (1 - 1e-6);
}

/**
 * The first `limit` events of the ranking that are not hidden, asking `hiddenAmong` about the
 * events not yet known (`known` remembers the answers), a few more than the page still needs at
 * a time.
 */
async function shownFirst(
  ranking: TextMatch[],
  limit: number,
  known: Map<string, boolean>,
  hiddenAmong: (ids: string[]) => Promise<Set<string>>,
): Promise<TextMatch[]> {
  const page: TextMatch[] = [];
  let next = 0;
  while (page.length < limit && next < ranking.length) {
    const batch = ranking.slice(next, next + (limit - page.length) * 2 + 8);
    next += batch.length;
    const unknown = batch.map((m) => m.id).filter((id) => !known.has(id));
    const hidden = await hiddenAmong(unknown);
    for (const id of unknown) known.set(id, hidden.has(id));
    for (const m of batch) if (page.length < limit && !known.get(m.id)) page.push(m);
  }
  return page;
}

/** The score of the `limit`-th event of a ranking or page, -Infinity when it holds fewer. */
function lastScore(ranking: TextMatch[], limit: number): number {
  return ranking.length >= limit ? ranking[limit - 1].score : -Infinity;
}

/** Whether the filters (besides collapsing duplicates) keep few events by the planner's estimate. */
async function keepsFew(
  sql: Sql,
  filters: Omit<EventFilters, "q">,
  few: number,
): Promise<boolean> {
  if (keepsEveryEvent(filters)) return false;
  return await estimatedEvents(sql, filters) <= few;
}

/** Events holding a word, best first: by score, then start, then id. */
function ranked(
  events: Iterable<EventLexemes>,
  o: { terms: TextTerms; idfs: number[]; lexemes: string[] },
): TextMatch[] {
  // Each word's lexemes as positions in an event's tfs, found once: a page's ranking scores
  // thousands of events, and a map lookup and new arrays per word and event cost more than the
  // arithmetic.
  const at = new Map(o.lexemes.map((l, i) => [l, i]));
  const words = o.terms.words.map((w) => ({
    parts: w.parts.map((l) => at.get(l) ?? -1),
    wholes: w.wholes.map((l) => at.get(l) ?? -1),
  }));
  const tfs = new Array<number>(words.length);
  const options = { idfs: o.idfs, meanLength: o.terms.meanLength };
  const scored: (Omit<TextMatch, "known"> & { startsAt: number })[] = [];
  for (const e of events) {
    const tf = (i: number) => i < 0 ? 0 : e.tfs[i] ?? 0;
    for (let w = 0; w < words.length; w++) {
      tfs[w] = wordFrequency(words[w], tf);
    }
    const s = scoreOf({ length: e.length, tfs }, options);
    if (s.score > 0) {
      scored.push({
        id: e.id,
        startsAt: e.starts_at.getTime(),
        score: s.score,
        everyWord: s.everyWord,
        coverage: s.coverage,
      });
    }
  }
  scored.sort((a, b) =>
    b.score - a.score || a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  const heldIdf = o.idfs.reduce((sum, idf) => sum + idf, 0);
  const unknownIdf = o.idfs.filter((idf) => idf === 0).length * unheldIdf(o.terms.events);
  const known = heldIdf / (heldIdf + unknownIdf);
  return scored.map(({ id, score, everyWord, coverage }) => ({
    id,
    score,
    everyWord,
    coverage,
    known,
  }));
}
