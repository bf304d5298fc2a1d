/** Builds the alerts of a server from its settings, its delivery worker started. */
import type { Sql } from "postgres";
import type { Config } from "../config.ts";
import { Alerts } from "./alerts.ts";
import { DeliveryWorker } from "./delivery-worker.ts";
import { createMailer } from "./mailer.ts";

/**
 * The server's Alerts, delivering in this process unless `config.alertWorker` is false;
 * `lastPushAt` says when a push was last in flight (matching waits for a pause).
 */
export function startAlerts(sql: Sql, config: Config, lastPushAt?: () => number): Alerts {
  const { smtpUrl, mailFrom } = config.alerts;
  const mailer = smtpUrl === undefined ? undefined : createMailer(smtpUrl, mailFrom);
  const worker = config.alertWorker === false ? null : new DeliveryWorker({
    sql,
    webhooks: {
      allowPrivate: config.alerts.webhooksAllowPrivate,
      retrySeconds: config.alerts.webhookRetrySeconds,
    },
    pollMs: config.alertWorker?.pollMs,
    digestPeriodMs: config.alertWorker?.digestPeriodMs,
    cfpReminders: {
      days: config.alerts.cfpReminderDays,
      everyMs: config.alertWorker?.cfpReminderEveryMs,
    },
    leaseMs: config.alerts.claimMs,
    mailer,
    publicUrl: config.publicUrl,
  });
  const alerts = new Alerts(sql, { worker, mailer, lastPushAt, matching: config.alerts.matching });
  alerts.start();
  return alerts;
}
