/**
 * The rules of saving a search, for the API and the site alike: at most SAVED_SEARCHES_MAX per
 * account, words that can be searched, a webhook only to a public address (with its secret made
 * then and shown once), mail only to a confirmed address, feed URLs with an unguessable token.
 */
import type { Sql } from "postgres";
import type { AppDeps } from "../app-env.ts";
import { bytesToBase64Url } from "../base64url.ts";
import { accountAddressOf } from "../db/accounts.ts";
import { recentDeliveries } from "../db/alert-deliveries.ts";
import {
  everyWordQuery,
  getSavedSearch,
  insertSavedSearch,
  type SavedSearchFields,
  type SavedSearchRecord,
  updateSavedSearch,
} from "../db/saved-searches.ts";
import { AppError, validationError } from "../errors.ts";
import { resolveWebhookHost, WebhookAddressError } from "./webhook-address.ts";
import { newWebhookSecret } from "./webhook-signing.ts";

type Deps = Pick<AppDeps, "db" | "config">;

/** The fields of a save, validated at the edge (server/api/saved-search-schemas.ts). */
export interface SaveRequest {
  name: string;
  q: string | null;
  filters: { given: Record<string, unknown>; resolved: SavedSearchFields["resolved"] };
  webhook_url: string | null;
  email: "instant" | "daily" | "off";
}

/** A saved search as shown, with its feed URLs; `webhook_secret` only when just made. */
export function savedSearchView(
  record: SavedSearchRecord,
  o: { base: string; secret?: string | null },
) {
  return {
    id: record.id,
    name: record.name,
    q: record.q,
    filters: record.filters as Record<string, string | number | boolean>,
    webhook_url: record.webhook_url,
    webhook_disabled_at: record.webhook_disabled_at?.toISOString() ?? null,
    email: record.email,
    paused: record.paused,
    feed_ics_url: `${o.base}/alerts/${record.feed_token}.ics`,
    feed_atom_url: `${o.base}/alerts/${record.feed_token}.atom`,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    ...(o.secret ? { webhook_secret: o.secret } : {}),
  };
}

/** The base of absolute links: PUBLIC_URL, else the request's origin. */
export function linkBase(deps: Deps, origin: string): string {
  return deps.config.publicUrl ?? origin;
}

/** Checks what a save asks for beyond its form: searchable words, webhook host, mail. */
async function checkSave(
  deps: Deps,
  o: { contributorId: string; request: SaveRequest; webhookChanged: boolean; mailChanged: boolean },
): Promise<string | null> {
  const { request } = o;
  const qMatch = await everyWordQuery(deps.db.sql, request.q);
  if (qMatch === "") {
    throw validationError([{
      path: ["q"],
      message: "q has no word that can be searched (only stop words such as “the”): add one",
    }]);
  }
  if (request.webhook_url !== null && o.webhookChanged) {
    try {
      await resolveWebhookHost(new URL(request.webhook_url), {
        allowPrivate: deps.config.alerts.webhooksAllowPrivate,
      });
    } catch (err) {
      if (!(err instanceof WebhookAddressError)) throw err;
      throw validationError([{ path: ["webhook_url"], message: err.message }]);
    }
  }
  if (request.email !== "off" && o.mailChanged) {
    const address = await accountAddressOf(deps.db.sql, o.contributorId);
    if (!address?.verified) {
      throw new AppError(
        "email_not_verified",
        address
          ? `Mail goes only to a confirmed address: confirm ${address.email} with the link ` +
            "sent from your account page (/account), then save again."
          : "Mail goes only to the confirmed address of a site account, and this key's " +
            'contributor has none: set email to "off", or use a key made on the dashboard.',
      );
    }
  }
  return qMatch;
}

/** Saves a new search; its view carries the webhook secret, the only time it is shown. */
export async function createSavedSearch(
  deps: Deps,
  o: { contributorId: string; request: SaveRequest; origin: string },
) {
  const { request } = o;
  const qMatch = await checkSave(deps, { ...o, webhookChanged: true, mailChanged: true });
  const secret = request.webhook_url === null ? null : newWebhookSecret();
  const max = deps.config.alerts.maxSavedSearches;
  const record = await insertSavedSearch(deps.db.sql, {
    contributorId: o.contributorId,
    fields: fieldsOf(request),
    qMatch,
    webhookSecret: secret,
    feedToken: newFeedToken(),
    unsubscribeToken: newFeedToken(),
    linkBase: o.origin,
    max,
  });
  if (record === null) {
    throw new AppError(
      "saved_searches_limit",
      `An account may hold ${max} saved searches, and this one holds as many: delete one ` +
        "first (DELETE /api/v1/me/searches/{id}).",
    );
  }
  return savedSearchView(record, { base: linkBase(deps, o.origin), secret });
}

/** A PATCH: the fields it names, `paused`, and `revoke_feeds`. */
export interface SavePatch extends Partial<SaveRequest> {
  paused?: boolean;
  revoke_feeds?: true;
}

/**
 * Changes the fields a PATCH names. A webhook URL where there was none gets a new secret, shown in
 * this answer only; removing the URL removes the secret.
 */
export async function patchSavedSearch(
  deps: Deps,
  o: {
    contributorId: string;
    id: string;
    patch: SavePatch;
    origin: string;
    reparse: (filters: Record<string, unknown>) => SaveRequest["filters"];
  },
) {
  const sql: Sql = deps.db.sql;
  const old = await getSavedSearch(sql, o.contributorId, o.id);
  if (old === null) throw notFound(o.id);
  const { patch } = o;
  const request: SaveRequest = {
    name: patch.name ?? old.name,
    q: patch.q === undefined ? old.q : patch.q,
    filters: patch.filters ?? o.reparse(old.filters),
    webhook_url: patch.webhook_url === undefined ? old.webhook_url : patch.webhook_url,
    email: patch.email ?? old.email,
  };
  const qMatch = await checkSave(deps, {
    contributorId: o.contributorId,
    request,
    webhookChanged: request.webhook_url !== old.webhook_url,
    mailChanged: request.email !== old.email,
  });
  const madeSecret = request.webhook_url !== null && old.webhook_secret === null
    ? newWebhookSecret()
    : null;
  const record = await updateSavedSearch(sql, {
    id: o.id,
    contributorId: o.contributorId,
    fields: fieldsOf(request),
    qMatch,
    paused: patch.paused ?? old.paused,
    webhookSecret: request.webhook_url === null ? null : madeSecret ?? old.webhook_secret,
    feedToken: patch.revoke_feeds ? newFeedToken() : old.feed_token,
  });
  if (record === null) throw notFound(o.id);
  return savedSearchView(record, { base: linkBase(deps, o.origin), secret: madeSecret });
}

/** One search with its latest deliveries, or 404. */
export async function showSavedSearch(
  deps: Deps,
  o: { contributorId: string; id: string; origin: string },
) {
  const record = await getSavedSearch(deps.db.sql, o.contributorId, o.id);
  if (record === null) throw notFound(o.id);
  const deliveries = await recentDeliveries(deps.db.sql, record.id, 20);
  return {
    ...savedSearchView(record, { base: linkBase(deps, o.origin) }),
    deliveries: deliveries.map((d) => ({
      ...d,
      kind: d.kind as "new",
      channel: d.channel as "webhook",
      status: d.status as "pending",
      last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
      created_at: d.created_at.toISOString(),
    })),
  };
}

/** The 404 of a saved search that is not the caller's (or not at all). */
export function notFound(id: string): AppError {
  return new AppError("not_found", `You have no saved search with the id ${JSON.stringify(id)}.`);
}

function fieldsOf(request: SaveRequest): SavedSearchFields {
  return {
    name: request.name,
    q: request.q,
    filters: request.filters.given,
    resolved: request.filters.resolved,
    webhook_url: request.webhook_url,
    email: request.email,
  };
}

/** 256 random bits: the capability of a private feed or an unsubscribe link. */
function newFeedToken(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
