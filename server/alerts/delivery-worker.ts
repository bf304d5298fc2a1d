/**
 * The delivery worker: makes the notices of new matches (fanOutNewHits), claims due deliveries
 * (server/db/alert-deliveries.ts), sends them, records each outcome, and repeats until none is
 * due; then sleeps until woken in-process (a decision's commit) or until the poll, which also
 * finds retries come due and what a stopped server left.
 * No LISTEN/NOTIFY: the embedded database's connection does not carry it.
 */
import type { Sql } from "postgres";
import {
  claimDeliveries,
  type ClaimedDelivery,
  type DeliveryOutcome,
  disableWebhook,
  recordDelivery,
} from "../db/alert-deliveries.ts";
import { deliverWebhook, noticeMessage, type WebhookSettings } from "./webhook-delivery.ts";
import { deliverEmail } from "./email-delivery.ts";
import type { Mailer } from "./mailer.ts";
import { sendDueDigests } from "./daily-digests.ts";
import { decideCfpReminders } from "../db/cfp-reminders.ts";
import { fanOutNewHits } from "../db/notices.ts";

/** Reminders one pass decides at most; a full pass is followed by another at once. */
const REMINDERS_PER_PASS = 500;
/** New matches one pass makes notices of at most; a full pass is followed by another at once. */
const FAN_OUT_PER_PASS = 1_000;

/** How the worker runs. */
export interface DeliveryWorkerOptions {
  sql: Sql;
  webhooks: WebhookSettings;
  /** Sends mail, when SMTP_URL is set; without it, email deliveries are dropped. */
  mailer?: Mailer;
  /** PUBLIC_URL: the base of links in mail (else the origin each search was saved from). */
  publicUrl?: string;
  /** Milliseconds between a search's daily digests (a day; tests shorten it). */
  digestPeriodMs?: number;
  /** CFP_REMINDER_DAYS, and how often the reminder pass runs (a minute; tests shorten it). */
  cfpReminders?: { days: number; everyMs?: number };
  /** Sleep between looks when nothing woke the worker. */
  pollMs?: number;
  /** How long a claim holds before another worker may take the delivery. */
  leaseMs?: number;
  batchSize?: number;
  log?: (message: string) => void;
}

/** Runs deliveries in this process. */
export class DeliveryWorker {
  readonly #o:
    & Required<Omit<DeliveryWorkerOptions, "mailer" | "publicUrl" | "cfpReminders">>
    & DeliveryWorkerOptions;
  #stopped = true;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #woken = false;
  /** When the CFP reminder pass last ran (ms since the epoch). */
  #remindedAt = 0;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = {
      ...options,
      pollMs: options.pollMs ?? 5_000,
      digestPeriodMs: options.digestPeriodMs ?? 86_400_000,
      leaseMs: options.leaseMs ?? 60_000,
      batchSize: options.batchSize ?? 16,
      log: options.log ?? ((m) => console.error(m)),
    };
  }

  /** Starts the loop (it first takes whatever is due, a stopped server's work too). */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** Something was committed to deliver: look now. */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Stops after the deliveries in progress; what is not recorded is claimed again later. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    this.#loop = null;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      this.#woken = false;
      let claimed: ClaimedDelivery[] = [];
      try {
        if (await this.#remindCfps()) this.#woken = true;
        if (await fanOutNewHits(this.#o.sql, FAN_OUT_PER_PASS) > 0) this.#woken = true;
        claimed = await claimDeliveries(this.#o.sql, {
          limit: this.#o.batchSize,
          leaseMs: this.#o.leaseMs,
        });
        await Promise.all(claimed.map((d) => this.#deliver(d)));
        if (this.#o.mailer !== undefined) {
          await sendDueDigests(this.#o.sql, {
            mailer: this.#o.mailer,
            periodMs: this.#o.digestPeriodMs,
            publicUrl: this.#o.publicUrl,
          });
        }
      } catch (err) {
        this.#o.log(`Cannot deliver alerts (tried again soon): ${(err as Error).message}`);
        claimed = [];
      }
      if (claimed.length === 0 && !this.#woken && !this.#stopped) await this.#sleep();
    }
  }

  /**
   * The CFP reminder pass (server/db/cfp-reminders.ts), at most once per its period; whether it
   * decided some, so the loop delivers them now and takes the next bounded pass at once.
   */
  async #remindCfps(): Promise<boolean> {
    const reminders = this.#o.cfpReminders;
    if (reminders === undefined) return false;
    const everyMs = reminders.everyMs ?? 60_000;
    if (Date.now() - this.#remindedAt < everyMs) return false;
    this.#remindedAt = Date.now();
    const decided = await decideCfpReminders(this.#o.sql, {
      days: reminders.days,
      limit: REMINDERS_PER_PASS,
    });
    if (decided === REMINDERS_PER_PASS) this.#remindedAt = 0;
    return decided > 0;
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.#o.pollMs);
      this.#wake = done;
    });
  }

  async #deliver(d: ClaimedDelivery): Promise<void> {
    const outcome = await this.#outcomeOf(d);
    await recordDelivery(this.#o.sql, d, outcome);
    if (outcome.status === "failed" && d.channel === "webhook") {
      await disableWebhook(this.#o.sql, d.saved_search_id);
      this.#o.log(
        `Webhook of saved search ${d.saved_search_id} disabled: retries ran out (${outcome.result})`,
      );
      await this.#tellWebhookDisabled(d, outcome.result);
    }
  }

  /** Mails the owner (when its address is confirmed) that the webhook is disabled. */
  async #tellWebhookDisabled(d: ClaimedDelivery, reason: string): Promise<void> {
    if (this.#o.mailer === undefined || d.verified_email === null) return;
    const base = this.#o.publicUrl ?? d.link_base;
    const text = `The webhook of your saved search “${d.saved_search_name}” (${d.webhook_url}) ` +
      `failed for every retry (last: ${reason}) and is disabled. Save its URL again at ` +
      `${base}/alerts or with PATCH /api/v1/me/searches/${d.saved_search_id} to enable it.`;
    await this.#o.mailer.send({
      to: d.verified_email,
      subject: `Webhook disabled: ${d.saved_search_name}`,
      text,
      html: `<p>${text.replaceAll("&", "&amp;").replaceAll("<", "&lt;")}</p>`,
    }).catch((err) => this.#o.log(`Cannot tell of a disabled webhook: ${err.message}`));
  }

  async #outcomeOf(d: ClaimedDelivery): Promise<DeliveryOutcome> {
    if (d.paused) return { status: "dropped", result: "the saved search is paused" };
    const message = await noticeMessage(this.#o.sql, d);
    if (message === null) return { status: "dropped", result: "the event is gone" };
    if (d.channel === "webhook") {
      return await deliverWebhook(d, { message, settings: this.#o.webhooks });
    }
    if (this.#o.mailer === undefined) {
      return { status: "dropped", result: "mail is not set up (SMTP_URL)" };
    }
    return await deliverEmail(d, {
      message,
      mailer: this.#o.mailer,
      publicUrl: this.#o.publicUrl,
      retrySeconds: this.#o.webhooks.retrySeconds,
    });
  }
}
