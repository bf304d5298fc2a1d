/**
 * The fair front page's rule: on a page of `limit` events, no single unreviewed contributor
 * holds more than a quarter and unreviewed contributors together no more than half. A pure
 * function over the two streams of server/db/fair-listing.ts, so the rule is in one place.
 */
import type { RoundEvent, StreamEvent } from "../db/fair-listing.ts";

/** The most events of one unreviewed contributor on a page of `limit` (at least one). */
export function perContributorCap(limit: number): number {
  return Math.max(1, Math.floor(limit / 4));
}

/** The most events of unreviewed contributors together on a page of `limit` (at least one). */
export function unreviewedCap(limit: number): number {
  return Math.max(1, Math.floor(limit / 2));
}

/** A page chosen from the streams, and how far each stream was taken. */
export interface FairChoice {
  /** The chosen events, soonest first. */
  shown: StreamEvent[];
  lastReviewed: StreamEvent | null;
  lastUnreviewed: RoundEvent | null;
  /** Whether either stream holds more events than were taken. */
  more: boolean;
}

/**
 * Takes events soonest first from the head of each stream: a prefix of each, so that the next
 * page starts where this one stopped in both. An unreviewed event is taken while the caps allow;
 * the first one they refuse ends the unreviewed stream for this page (taking a later one instead
 * would lose the refused one across pages). `reviewed` must hold up to limit + 1 events and
 * `unreviewed` up to unreviewedCap + 1, so that `more` is known.
 */
export function chooseFairPage(
  streams: { reviewed: StreamEvent[]; unreviewed: RoundEvent[] },
  limit: number,
): FairChoice {
  const { reviewed, unreviewed } = streams;
  const perContributor = perContributorCap(limit);
  const together = unreviewedCap(limit);
  const counts = new Map<string, number>();
  const shown: StreamEvent[] = [];
  let r = 0;
  let u = 0;
  let unreviewedOpen = true;
  const takable = (e: RoundEvent | undefined) =>
    e !== undefined && u < together && (counts.get(e.contributor_id) ?? 0) < perContributor;
  while (shown.length < limit) {
    const nextR = reviewed[r];
    const nextU = unreviewedOpen ? unreviewed[u] : undefined;
    if (nextU !== undefined && !takable(nextU)) unreviewedOpen = false;
    const canU = unreviewedOpen && nextU !== undefined;
    if (!nextR && !canU) break;
    if (canU && (!nextR || sooner(nextU, nextR))) {
      shown.push(nextU);
      counts.set(nextU.contributor_id, (counts.get(nextU.contributor_id) ?? 0) + 1);
      u++;
    } else {
      shown.push(nextR!);
      r++;
    }
  }
  shown.sort((a, b) => (sooner(a, b) ? -1 : 1));
  return {
    shown,
    lastReviewed: r > 0 ? reviewed[r - 1] : null,
    lastUnreviewed: u > 0 ? unreviewed[u - 1] : null,
    more: reviewed.length > r || unreviewed.length > u,
  };
}

function sooner(a: StreamEvent, b: StreamEvent): boolean {
  const at = Date.parse(a.starts_at);
  const bt = Date.parse(b.starts_at);
  return at < bt || (at === bt && a.id < b.id);
}
