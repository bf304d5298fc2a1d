/**
 * The BM25F score of text ranking, defined once (docs/search.md), and the bound on what an event
 * the ranking did not read can score.
 *
 * Per event and lexeme, the weighted term frequency counts the lexeme's occurrences per field:
 * title 2, labels 1.5, place and organiser 1, description 1 (event_text_tf, migration 029).
 * A word's frequency is the least of its parts' plus its whole spellings' ("test-driven": where
 * both test and driven occur, plus "testdriven"); how many events hold it, the least of its parts'
 * plus its whole spellings'. Its score: idf x tf (k1 + 1) / (tf + k1 (1 - b + b len / mean)), with
 * k1 1.2, b 0.75, len the event's distinct lexemes and idf ln(1 + (N - df + 0.5) / (df + 0.5));
 * an event's score is the sum over the query's words.
 */
import type { TextTerms, TextWord } from "./text-terms.ts";

export const K1 = 1.2;
export const B = 0.75;
/** The mean length postings are ordered at (event_text_impact, migration 029). */
export const REFERENCE_LENGTH = 64;

/** BM25's term factor. */
export function termFactor(tf: number, length: number, mean: number): number {
  return tf * (K1 + 1) / (tf + K1 * ((1 - B) + B * length / Math.max(mean, 1)));
}

/** A word's weighted term frequency from its lexemes' (absent lexemes: 0). */
export function wordFrequency<L>(word: { parts: L[]; wholes: L[] }, tf: (lexeme: L) => number) {
  let parts = Infinity;
  for (const l of word.parts) parts = Math.min(parts, tf(l));
  let sum = parts === Infinity ? 0 : parts;
  for (const l of word.wholes) sum += tf(l);
  return sum;
}

/**
 * A word's document frequency: its rarest part's plus its whole spellings'. Exact for a word of
 * one lexeme; otherwise at least the events holding it.
 */
export function wordDocs(word: TextWord, terms: Pick<TextTerms, "docs">): number {
  const docs = (l: string) => terms.docs.get(l) ?? 0;
  const parts = word.parts.length === 0 ? 0 : Math.min(...word.parts.map(docs));
  return parts + word.wholes.reduce((s, w) => s + docs(w), 0);
}

/** A word's inverse document frequency; 0 for a word no event holds. */
export function wordIdf(word: TextWord, terms: Pick<TextTerms, "docs" | "events">): number {
  const df = wordDocs(word, terms);
  if (df === 0) return 0;
  const n = Math.max(terms.events, df);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The idf a word no event holds counts at where the query's known share is measured
 * (TextMatch.known): that of a word held by one event, the rarest a held word can be.
 */
export function unheldIdf(events: number): number {
  const n = Math.max(events, 1);
  return Math.log(1 + (n - 1 + 0.5) / (1 + 0.5));
}

/** An event's score parts: its length and its words' frequencies. */
export interface EventFrequencies {
  length: number;
  /** Per word of the query, in order. */
  tfs: number[];
}

/** The event's score and the share of the query's idf its words hold. */
export function scoreOf(
  event: EventFrequencies,
  o: { idfs: number[]; meanLength: number },
): { score: number; coverage: number; everyWord: boolean } {
  let score = 0;
  let held = 0;
  let all = 0;
  let every = true;
  for (let i = 0; i < o.idfs.length; i++) {
    const idf = o.idfs[i];
    if (idf === 0) continue;
    all += idf;
    const tf = event.tfs[i];
    if (tf > 0) {
      score += idf * termFactor(tf, event.length, o.meanLength);
      held += idf;
    } else every = false;
  }
  return { score, coverage: all > 0 ? held / all : 0, everyWord: every && held > 0 };
}

/**
 * The most a term factor can be for an event whose factor at REFERENCE_LENGTH is at most
 * `impact`, at the mean length `mean`. Below the reference, a longer mean only lowers it; above,
 * the factor grows most for the longest texts, by (k1 + 1) / (impact + (k1 + 1 - impact) r) with
 * r = reference / mean. A little room for the float4 the impact is stored in.
 */
export function factorBound(impact: number, mean: number): number {
  if (impact <= 0) return 0;
  const r = Math.min(1, REFERENCE_LENGTH / Math.max(mean, 1));
  const ratio = r >= 1 ? 1 : (K1 + 1) / (impact + (K1 + 1 - impact) * r);
  return Math.min(K1 + 1, impact * ratio) * (1 + 1e-6);
}

/**
 * More than any event outside the postings read can score: per word, its parts' least bound plus
 * its whole spellings' (a factor of a sum is at most the sum of the factors), times its idf.
 * `cutoff` is, per lexeme, the impact below which postings were not read (0: all were).
 */
export function boundOutside(
  words: TextWord[],
  o: { idfs: number[]; meanLength: number; cutoff: (lexeme: string) => number },
): number {
  let bound = 0;
  words.forEach((word, i) => {
    if (o.idfs[i] === 0) return;
    const f = (l: string) => factorBound(o.cutoff(l), o.meanLength);
    bound += o.idfs[i] *
      (Math.min(...word.parts.map(f)) + word.wholes.reduce((sum, w) => sum + f(w), 0));
  });
  return bound;
}
