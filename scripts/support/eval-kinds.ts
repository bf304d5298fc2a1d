/** The kinds of evaluation query and what a judged query holds. */

/**
 * literal: uses the words of its topic's label; paraphrased: says the same without any of them,
 * so only meaning can connect them; place_time: a topic with a place, a way of attending or a
 * time, which only the events of the topic there (or then) answer.
 */
export const QUERY_KINDS = ["literal", "paraphrased", "place_time"] as const;
export type JudgedKind = typeof QUERY_KINDS[number];

/** What a place_time query narrows its topic to. */
export interface Narrowing {
  city?: string;
  country?: string;
  online?: boolean;
  /** FOSDEM: the talks of that year only. */
  year?: number;
}

/** A query, its kind, the topic whose events answer it, and how a place or time narrows them. */
export interface JudgedQuery {
  q: string;
  kind: JudgedKind;
  topic: string;
  narrow?: Narrowing;
}
