/**
 * Federation as the server runs it: Fedify over our key-value store and queue, its delivery
 * queue listening, the publisher draining the outbox, and the gate that refuses inbox requests
 * from blocked domains before Fedify reads them.
 */
import type { Sql } from "postgres";
import type { Federation } from "@fedify/fedify";
import { DatabaseKvStore } from "./kv-store.ts";
import { DatabaseMessageQueue } from "./message-queue.ts";
import { createActivityPub } from "./activitypub.ts";
import { Publisher } from "./publisher.ts";
import { EVENTS_ACTOR } from "./actor-names.ts";
import { ensureNamedActors } from "../db/federation-actors.ts";
import { anyBlocked } from "../db/federation-blocks.ts";
import { setFederationSwitch } from "../db/federation-objects.ts";
import { pruneKv } from "../db/federation-kv.ts";
import { isFederationPath } from "./paths.ts";
import { AppError } from "../errors.ts";

/** What starting federation needs. */
export interface FederationSettings {
  /** PUBLIC_URL, when set. */
  origin?: string;
  allowPrivateAddress: boolean;
  /** Resolves once the duplicates of every committed batch are detected. */
  settled?: () => Promise<void>;
  /** Resolves when the publisher may start a transaction (PublisherOptions.turn). */
  turn?: () => Promise<void>;
  /** The publisher's poll (tests shorten it). */
  pollMs?: number;
}

/** Federation, started. */
export interface FederationService {
  readonly federation: Federation<void>;
  readonly publisher: Publisher;
  /** Answers a federation request, or passes it to `next` (the site and the API). */
  fetch(request: Request, next: () => Promise<Response>): Promise<Response>;
  /** Something to publish may have changed. */
  wake(): void;
  /** The server's own address, once it listens (when PUBLIC_URL is unset). */
  useOrigin(origin: string): void;
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** Starts federation over `sql`. */
export async function startFederation(
  sql: Sql,
  settings: FederationSettings,
): Promise<FederationService> {
  await setFederationSwitch(sql, true);
  await ensureNamedActors(sql, [{ handle: EVENTS_ACTOR, kind: "events", label: "events" }]);
  const queue = new DatabaseMessageQueue(sql);
  const federation = createActivityPub(sql, {
    kv: new DatabaseKvStore(sql),
    queue,
    origin: settings.origin,
    allowPrivateAddress: settings.allowPrivateAddress,
  });
  const stopQueue = new AbortController();
  const listening = federation.startQueue(undefined, { signal: stopQueue.signal });
  const publisher = new Publisher(sql, federation, {
    origin: settings.origin,
    settled: settings.settled,
    turn: settings.turn,
    pollMs: settings.pollMs,
  });
  publisher.start();
  const pruner = setInterval(() => {
    pruneKv(sql).catch((err) => console.error("Cannot prune federation's store:", err));
  }, PRUNE_EVERY_MS);
  return {
    federation,
    publisher,
    async fetch(request, next) {
      if (!isFederationPath(new URL(request.url).pathname)) return await next();
      if (request.method === "POST" && await fromBlockedDomain(sql, request)) {
        throw new AppError(
          "forbidden",
          "Cannot accept an activity from this server: its domain is blocked here.",
        );
      }
      return await federation.fetch(request, {
        contextData: undefined,
        onNotFound: next,
        onNotAcceptable: next,
      });
    },
    wake: () => publisher.wake(),
    useOrigin: (origin) => publisher.useOrigin(origin),
    async stop() {
      clearInterval(pruner);
      await publisher.stop();
      stopQueue.abort();
      await listening;
    },
  };
}

/** Hosts an inbox request names: its signature's key id and its body's actor. */
async function senderHosts(request: Request): Promise<string[]> {
  const hosts: string[] = [];
  const signature = request.headers.get("signature") ?? "";
  const input = request.headers.get("signature-input") ?? "";
  for (const match of `${signature} ${input}`.matchAll(/keyid="([^"]+)"/gi)) {
    const host = URL.parse(match[1])?.host;
    if (host) hosts.push(host.toLowerCase());
  }
  try {
    const body = await request.clone().json();
    const actor = typeof body?.actor === "string" ? body.actor : body?.actor?.id;
    const host = typeof actor === "string" ? URL.parse(actor)?.host : undefined;
    if (host) hosts.push(host.toLowerCase());
  } catch {
    // Not JSON: Fedify refuses it.
  }
  return hosts;
}

async function fromBlockedDomain(sql: Sql, request: Request): Promise<boolean> {
  return await anyBlocked(sql, await senderHosts(request));
}
