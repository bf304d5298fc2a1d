/**
 * Real talks of FOSDEM 2025 and 2026 as events, for the search-quality evaluation
 * (tests/fixtures/fosdem-talks/). Each talk is pushed with its title and abstract only, in
 * Brussels; its track (assigned by the organisers, not derived from the wording) is what the
 * evaluation judges by and is never part of the event.
 *
 * Both editions move into the future, keeping each one's days and hours: 2026 opens in the month
 * after `now`, 2025 three months later. Every talk is upcoming, and a query that names a time
 * ("rust talks next month") has the 2026 talks as its answer.
 */
import { EventInput, type EventRecord } from "../../shared/event-schema.ts";

const WEEK_MS = 7 * 86_400_000;
const FIXTURE = new URL("../../tests/fixtures/fosdem-talks/talks.json", import.meta.url);

/** One talk of the fixture. */
export interface Talk {
  id: string;
  year: number;
  track: string;
  starts_at: string;
  title: string;
  abstract: string;
}

/** The talks as events, and each talk's track and year by external id. */
export interface FosdemData {
  events: EventRecord[];
  talks: Map<string, Talk>;
}

/** Reads the fixture; `limit` keeps the first talks of each track, for small slices. */
export async function readFosdemTalks(
  options: { now: Date; tracks?: Set<string>; perTrack?: number; others?: number },
): Promise<FosdemData> {
  const all = JSON.parse(await Deno.readTextFile(FIXTURE)) as Talk[];
  const picked = pick(all, options);
  const shifts = new Map([2026, 2025].map((year, i) => {
    const opening = Math.min(
      ...all.filter((t) => t.year === year).map((t) => Date.parse(t.starts_at)),
    );
    // Whole weeks, so that each talk keeps its weekday and hour.
    const target = Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth() + 1 + 3 * i, 8);
    return [year, Math.round((target - opening) / WEEK_MS) * WEEK_MS];
  }));
  const events = picked.map((talk) => {
    const start = new Date(Date.parse(talk.starts_at) + shifts.get(talk.year)!);
    const parsed = EventInput.safeParse({
      external_id: talk.id,
      source_url: `https://fosdem.org/${talk.year}/schedule/`,
      title: talk.title,
      description: talk.abstract || undefined,
      starts_at: start.toISOString(),
      city: "Brussels",
      country: "Belgium",
      event_type: "talk",
    });
    if (!parsed.success) throw new Error(`Cannot read talk ${talk.id}: ${parsed.error.message}`);
    return parsed.data;
  });
  return { events, talks: new Map(picked.map((t) => [t.id, t])) };
}

function pick(
  all: Talk[],
  o: { tracks?: Set<string>; perTrack?: number; others?: number },
): Talk[] {
  if (!o.tracks) return all;
  const seen = new Map<string, number>();
  let others = 0;
  return all.filter((t) => {
    if (o.tracks!.has(t.track)) {
      const n = seen.get(t.track) ?? 0;
      seen.set(t.track, n + 1);
      return n < (o.perTrack ?? Infinity);
    }
    return others++ < (o.others ?? 0);
  });
}
