/**
 * The text that stands for an event in vector space: what it is about (title, topics, tags,
 * categories, type), where (city), and the start of its description. Prices, URLs and dates are
 * left out: they say nothing about meaning and would make harmless edits re-embed.
 */

/** The event fields the embedded text is built from. */
export interface EmbeddableEvent {
  title: string;
  topics: readonly string[];
  tags: readonly string[];
  categories: readonly string[];
  event_type: string | null;
  city: string | null;
  country: string | null;
  description: string | null;
}

/**
 * Long descriptions dilute a sentence encoder's vector, and the local model's time grows with the
 * text: the opening says what the event is. At 120 characters the local model embeds about 32
 * events per CPU second (19 at 300, 15 at 1,000: scripts/bench.ts).
 */
export const DESCRIPTION_CHARS = 120;

/** What an event's embedded text holds; the evaluation (scripts/eval-search.ts) compares others. */
export interface EventTextStyle {
  /** Characters of the description's opening. */
  descriptionChars: number;
  /** Whether the place names the country after the city ("in Lyon, France"). */
  country: boolean;
}

/** The style the worker embeds with: what the evaluation kept. */
export const EVENT_TEXT: EventTextStyle = { descriptionChars: DESCRIPTION_CHARS, country: false };

/**
 * Raise this with any change to what embeddingText makes of an event (EVENT_TEXT or the code):
 * the worker then re-embeds, in the background, every vector made from an older version. Events
 * whose text comes out the same keep their vector without a call to the model.
 */
export const EMBEDDING_TEXT_VERSION = 1;

/** Builds the text embedded for an event; equal inputs give equal text. */
export function embeddingText(event: EmbeddableEvent, style: EventTextStyle = EVENT_TEXT): string {
  const parts = [sentence(event.title)];
  const labels = [...event.topics, ...event.tags, ...event.categories];
  if (labels.length > 0) parts.push(sentence(`About ${dedupe(labels).join(", ")}`));
  const kind = event.event_type ? collapse(event.event_type) : "";
  const where = [event.city, style.country ? event.country : null]
    .map((p) => collapse(p ?? "")).filter((p) => p !== "");
  const place = where.length > 0 ? `in ${where.join(", ")}` : "";
  if (kind || place) parts.push(sentence([kind || "Event", place].filter(Boolean).join(" ")));
  if (event.description) {
    parts.push(openingOf(collapse(event.description), style.descriptionChars));
  }
  return parts.filter((p) => p !== "").join(" ");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function sentence(text: string): string {
  const t = collapse(text);
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}

function dedupe(labels: string[]): string[] {
  const seen = new Set<string>();
  return labels.map(collapse).filter((l) => {
    const key = l.toLowerCase();
    if (l === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The first `max` characters, cut at a word boundary when one is near. */
function openingOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return space > max * 0.8 ? cut.slice(0, space) : cut;
}

/** How a query is worded before it is embedded: as typed, or short ones like an event's topics. */
export type QueryTextStyle = "plain" | "about";

/** Queries of at most this many words are short: names of a subject, not sentences. */
const SHORT_QUERY_WORDS = 4;

/**
 * The text embedded for a query. "about" words a short query as events state their topics
 * ("About rust."), so that a bare name lands near the events tagged with it rather than wherever
 * a lone word's vector falls.
 */
export function queryEmbeddingText(q: string, style: QueryTextStyle): string {
  const text = collapse(q);
  if (style === "plain" || text.split(" ").length > SHORT_QUERY_WORDS) return text;
  return sentence(`About ${text}`);
}
