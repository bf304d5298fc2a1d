/**
 * What a feed holds, for --sync: every (platform, external_id) it names (valid or not), the ICS
 * series it could not read (their stored events are left alone), and what it cancels.
 */
import type { CheckedRecord } from "../readers/check-record.ts";

/** A stored event's identity. */
export interface EventKey {
  platform: string;
  external_id: string;
}

/** An event, or every event of an ICS series, that the feed cancels. */
export interface CancelledKey extends EventKey {
  series: boolean;
}

function keyOf(platform: string, externalId: string): string {
  return `${platform}\u0000${externalId}`;
}

/** The UID an ICS external_id was made from (without its occurrence's `#20260305T180000Z`). */
export function uidOf(externalId: string): string {
  return externalId.replace(/#\d{8}(T\d{6}Z)?$/, "");
}

/** Collects the feed's keys as its records go by. */
export class FeedInventory {
  readonly #keys = new Set<string>();
  readonly #unreadUids = new Set<string>();
  /** The platforms the feed's records are on. */
  readonly platforms = new Set<string>();
  /** What the feed cancels. */
  readonly cancelled: CancelledKey[] = [];

  constructor(
    readonly options: {
      /** Platform of records that name none (ICS: ics_feed unless --platform). */
      defaultPlatform: string;
      calendar?: string;
    },
  ) {}

  #own(id: string): string {
    return this.options.calendar === undefined ? id : `${this.options.calendar}/${id}`;
  }

  /** Takes one record into account. */
  add(record: CheckedRecord): void {
    const fallback = this.options.defaultPlatform;
    if (record.kind === "valid") {
      const platform = typeof record.event.platform === "string" ? record.event.platform : fallback;
      this.platforms.add(platform);
      this.#keys.add(keyOf(platform, String(record.event.external_id)));
    } else if (record.kind === "invalid") {
      const platform = record.platform ?? fallback;
      if (record.externalId !== undefined) {
        this.platforms.add(platform);
        this.#keys.add(keyOf(platform, record.externalId));
      }
      if (record.uid !== undefined) this.#unreadUids.add(this.#own(record.uid));
    } else if (record.kind === "skipped" && record.cancelled) {
      this.cancelled.push({
        platform: fallback,
        external_id: this.#own(record.cancelled.externalId),
        series: record.cancelled.series,
      });
    }
  }

  /** Whether the feed still holds this stored event (or cannot tell: its series did not read). */
  holds(event: EventKey): boolean {
    if (this.#keys.has(keyOf(event.platform, event.external_id))) return true;
    return this.#unreadUids.has(uidOf(event.external_id));
  }

  /** Whether the feed cancels this stored event. */
  cancels(event: EventKey): boolean {
    return this.cancelled.some((c) =>
      c.platform === event.platform &&
      (c.series ? uidOf(event.external_id) === c.external_id : c.external_id === event.external_id)
    );
  }
}
