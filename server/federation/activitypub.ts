/**
 * The Fedify federation: WebFinger, the actors (`events`, topics, cities) with their keys,
 * followers and outboxes, the published Event objects, and the inbox that answers Follow with
 * Accept and forgets a follower on Undo{Follow}. Fedify verifies every inbox request's signature
 * (draft-cavage and RFC 9421) and refuses an unsigned or badly signed one with 401.
 */
import type { Sql } from "postgres";
import {
  createFederation,
  exportJwk,
  type Federation,
  generateCryptoKeyPair,
  importJwk,
  type KvStore,
  type MessageQueue,
} from "@fedify/fedify";
import { Accept, Endpoints, Event, Follow, type Recipient, Service, Undo } from "@fedify/vocab";
import { getActor, readActorKeys, storeActorKeys } from "../db/federation-actors.ts";
import {
  addFollower,
  countFollowers,
  listFollowers,
  removeFollower,
} from "../db/federation-followers.ts";
import { anyBlocked } from "../db/federation-blocks.ts";
import { countOutbox, getObject, listOutbox } from "../db/federation-objects.ts";
import { activityOf, objectOf } from "./activities.ts";
import { actorDescription } from "./actor-profile.ts";
import { PATHS, profilePath } from "./paths.ts";

const PAGE = 20;

/** How the federation is made. */
export interface ActivityPubOptions {
  kv: KvStore;
  queue: MessageQueue;
  /** PUBLIC_URL: every id and link under it; unset, the origin of each request. */
  origin?: string;
  /** Reach servers on private and loopback addresses (tests only). */
  allowPrivateAddress: boolean;
}

/** Builds the federation over `sql`. Its queue is started by the caller. */
export function createActivityPub(sql: Sql, options: ActivityPubOptions): Federation<void> {
  const federation = createFederation<void>({
    kv: options.kv,
    queue: options.queue,
    origin: options.origin,
    allowPrivateAddress: options.allowPrivateAddress,
    manuallyStartQueue: true,
  });

  federation.setActorDispatcher(PATHS.actor, async (ctx, identifier) => {
    const actor = await getActor(sql, identifier);
    if (actor === null) return null;
    const keys = await ctx.getActorKeyPairs(identifier);
    const described = actorDescription(actor);
    return new Service({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: described.name,
      summary: described.summary,
      url: new URL(profilePath(identifier), ctx.origin),
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      manuallyApprovesFollowers: false,
      discoverable: true,
      published: Temporal.Instant.fromEpochMilliseconds(actor.created_at.getTime()),
      publicKey: keys[0]?.cryptographicKey,
      assertionMethods: keys.map((k) => k.multikey),
    });
  }).setKeyPairsDispatcher(async (_ctx, identifier) => {
    const pair = await actorKeyPair(sql, identifier);
    return pair === null ? [] : [pair];
  });

  federation.setObjectDispatcher(Event, PATHS.object, async (ctx, values) => {
    const object = await getObject(sql, values.id);
    if (object === null || object.deleted_at !== null) return null;
    return objectOf(ctx, object);
  });

  federation.setFollowersDispatcher(PATHS.followers, async (_ctx, identifier, cursor) => {
    if (cursor === null) return null;
    const rows = await listFollowers(sql, {
      actors: [identifier],
      after: cursor || undefined,
      limit: PAGE,
    });
    const items: Recipient[] = rows.map((r) => ({
      id: new URL(r.follower_id),
      inboxId: new URL(r.inbox),
      endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
    }));
    const nextCursor = rows.length === PAGE ? rows[rows.length - 1].follower_id : null;
    return { items, nextCursor };
  }).setFirstCursor(() => "")
    .setCounter((_ctx, identifier) => countFollowers(sql, identifier));

  federation.setOutboxDispatcher(PATHS.outbox, async (ctx, identifier, cursor) => {
    if (cursor === null) return null;
    const rows = await listOutbox(sql, {
      actor: identifier,
      beforeSeq: cursor || undefined,
      limit: PAGE,
    });
    const items = rows.map((row) => activityOf(ctx, row));
    const nextCursor = rows.length === PAGE ? rows[rows.length - 1].seq : null;
    return { items, nextCursor };
  }).setFirstCursor(() => "")
    .setCounter((_ctx, identifier) => countOutbox(sql, identifier));

  federation.setInboxListeners(PATHS.inbox, PATHS.sharedInbox)
    .on(Follow, async (ctx, follow) => {
      const target = ctx.parseUri(follow.objectId);
      if (follow.id === null || target?.type !== "actor") return;
      if (await getActor(sql, target.identifier) === null) return;
      const follower = await follow.getActor(ctx);
      if (follower?.id == null || follower.inboxId === null) return;
      if (await anyBlocked(sql, [follower.id.host.toLowerCase()])) return;
      await addFollower(sql, {
        actor: target.identifier,
        followerId: follower.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
      });
      const actorUri = ctx.getActorUri(target.identifier);
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({
          id: new URL(`#accepts/${crypto.randomUUID()}`, actorUri),
          actor: actorUri,
          object: follow,
        }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || undo.actorId === null) return;
      // Only the follower itself may take its follow back.
      if (object.actorId?.href !== undo.actorId.href) return;
      const target = ctx.parseUri(object.objectId);
      if (target?.type !== "actor") return;
      await removeFollower(sql, { actor: target.identifier, followerId: undo.actorId.href });
    });

  return federation;
}

/** The actor's RSA key pair, made and stored the first time it is asked for. */
async function actorKeyPair(sql: Sql, handle: string): Promise<CryptoKeyPair | null> {
  if (await getActor(sql, handle) === null) return null;
  let stored = await readActorKeys(sql, handle);
  if (stored === null) {
    const made = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    stored = await storeActorKeys(sql, handle, {
      publicKey: await exportJwk(made.publicKey),
      privateKey: await exportJwk(made.privateKey),
    });
    if (stored === null) return null;
  }
  return {
    publicKey: await importJwk(stored.publicKey, "public"),
    privateKey: await importJwk(stored.privateKey, "private"),
  };
}
