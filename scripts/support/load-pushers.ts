/**
 * Contributors pushing as fast as the server answers: each key sends 100-event batches one after
 * another, a mix of new events and events it already pushed (some unchanged, as a scraper that
 * re-sends its whole feed does, some changed). Each answer's counts are checked against what was
 * sent: every new event inserted, every re-sent one updated, none refused.
 */
import { realisticEvents } from "./realistic-events.ts";
import { type LoadContext, running, send } from "./load-requests.ts";

/** Shares of a batch, once the key has pushed enough to re-send. */
export const BATCH_MIX = { new: 0.6, unchanged: 0.25, changed: 0.15 };

/** What the pushers achieved. */
export interface PushTally {
  /** Events in batches acknowledged in the measured window. */
  measuredEvents: number;
  inserted: number;
  updated: number;
  /** New events acknowledged over the whole run: what the database must hold for these keys. */
  storedNew: number;
}

/** Options of pushLoop. */
export interface Pusher {
  /** The contributor's API key. */
  key: string;
  /** Which key (0-based): keeps each key's external ids its own. */
  index: number;
  batchSize: number;
  tally: PushTally;
}

/** Pushes batches until the run ends. */
export async function pushLoop(ctx: LoadContext, p: Pusher): Promise<void> {
  const acknowledged: number[] = [];
  let nextNew = 0;
  let changes = 0;
  let seed = 977 + p.index;
  const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  while (running(ctx)) {
    const resendable = Math.min(acknowledged.length, p.batchSize);
    const unchanged = Math.min(resendable, Math.round(p.batchSize * BATCH_MIX.unchanged));
    const changed = Math.min(resendable - unchanged, Math.round(p.batchSize * BATCH_MIX.changed));
    const again = pickDistinct(acknowledged, unchanged + changed, random);
    const fresh = Array.from({ length: p.batchSize - again.length }, () => nextNew++);
    const events = [
      ...fresh.map((n) => loadEvent(p.index, n, 0)),
      ...again.map((n, i) => loadEvent(p.index, n, i < unchanged ? 0 : ++changes)),
    ];
    const started = performance.now();
    const body = await send(ctx, {
      kind: "push",
      path: "/api/v1/events",
      init: {
        method: "POST",
        headers: { Authorization: `Bearer ${p.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ events }),
      },
      check: (text) => batchProblem(text, { inserted: fresh.length, updated: again.length }),
    });
    if (body === null) continue;
    acknowledged.push(...fresh);
    p.tally.storedNew += fresh.length;
    if (ctx.recorder.measured(started)) {
      p.tally.measuredEvents += events.length;
      p.tally.inserted += fresh.length;
      p.tally.updated += again.length;
    }
  }
}

/** Event `n` of key `index`; a revision above 0 changes its attendee count. */
function loadEvent(index: number, n: number, revision: number): Record<string, unknown> {
  const event = realisticEvents(n, 1, 1000 + index * 10_000_000)[0];
  event.external_id = `load-${index}-${n}`;
  if (revision > 0) {
    // 1-299 on: never the count it had, so the content hash changes.
    event.attendee_count = ((event.attendee_count as number) + 1 + revision % 299) % 300;
  }
  return event;
}

/** What is wrong with a push's answer, or null when its counts are the expected ones. */
function batchProblem(text: string, want: { inserted: number; updated: number }): string | null {
  try {
    const { data } = JSON.parse(text);
    if (data.errors.length > 0) return `items refused (${data.errors[0].message})`;
    if (data.inserted !== want.inserted || data.updated !== want.updated) {
      return `counts ${data.inserted}/${data.updated}, expected ${want.inserted}/${want.updated}`;
    }
    return null;
  } catch {
    return "not the batch result";
  }
}

/** `count` distinct items of `from`, at random. */
function pickDistinct(from: number[], count: number, random: () => number): number[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(from[Math.floor(random() * from.length)]);
  return [...picked];
}
