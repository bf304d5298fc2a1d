/**
 * A second ActivityPub server for tests and benchmarks: a small Fedify app on its own loopback
 * port with one actor, `alice`, that finds an actor by WebFinger, follows it, takes the follow
 * back, and keeps every activity its inbox receives, as the JSON that arrived.
 */
import {
  createFederation,
  type Federation,
  generateCryptoKeyPair,
  MemoryKvStore,
} from "@fedify/fedify";
import {
  Accept,
  Announce,
  Create,
  Delete,
  Endpoints,
  Follow,
  Person,
  Undo,
  Update,
} from "@fedify/vocab";

/** An activity as the peer's inbox received it. */
export interface Received {
  type: string;
  json: Record<string, unknown>;
  /** The inbox it came to: the shared one or alice's own. */
  inbox: string;
}

/** A running peer. */
export interface ActivityPubPeer {
  url: string;
  /** alice's id. */
  actorId: URL;
  received: Received[];
  /** The actor behind `acct:<handle>@<host>`, found through WebFinger over plain HTTP. */
  lookup(handle: string, host: string): Promise<URL>;
  /** alice sends a signed Follow of `actor`. */
  follow(actor: URL): Promise<void>;
  /** alice takes her follow of `actor` back (Undo{Follow}). */
  unfollow(actor: URL): Promise<void>;
  /** Resolves with the first received activity `match` accepts, within `timeoutMs`. */
  waitFor(match: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

const ALICE = "alice";

/** Starts a peer on a free loopback port. */
export async function startActivityPubPeer(): Promise<ActivityPubPeer> {
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const federation: Federation<void> = createFederation<void>({
    kv: new MemoryKvStore(),
    allowPrivateAddress: true,
  });
  federation.setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
    if (identifier !== ALICE) return null;
    const pairs = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: "Alice",
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: pairs[0].cryptographicKey,
    });
  }).setKeyPairsDispatcher((_ctx, identifier) => identifier === ALICE ? [keys] : []);
  federation.setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Accept, () => {})
    .on(Create, () => {})
    .on(Update, () => {})
    .on(Delete, () => {})
    .on(Announce, () => {});

  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.clone().text() : "";
    const res = await federation.fetch(req, { contextData: undefined });
    if (req.method === "POST" && res.status < 300) {
      const json = JSON.parse(body);
      received.push({ type: String(json.type), json, inbox: path });
      for (const wake of [...waiters]) wake();
    }
    return res;
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const ctx = () => federation.createContext(new URL(url), undefined);
  const actorId = ctx().getActorUri(ALICE);

  const lookupActor = async (id: URL) => {
    const actor = await ctx().lookupObject(id.href);
    if (actor === null || !("inboxId" in actor)) throw new Error(`Cannot find the actor ${id}`);
    return actor as Person;
  };

  return {
    url,
    actorId,
    received,
    async lookup(handle, host) {
      const res = await fetch(
        `http://${host}/.well-known/webfinger?resource=acct:${handle}@${host}`,
      );
      if (res.status !== 200) throw new Error(`Cannot find ${handle}@${host}: ${res.status}`);
      const doc = await res.json();
      const self = doc.links?.find((l: { rel: string }) => l.rel === "self");
      if (!self) throw new Error(`Cannot find ${handle}@${host}: no self link`);
      return new URL(self.href);
    },
    async follow(actor) {
      const target = await lookupActor(actor);
      await ctx().sendActivity(
        { identifier: ALICE },
        target,
        new Follow({
          id: new URL(`#follow-${actor.href}`, actorId),
          actor: actorId,
          object: actor,
        }),
        { immediate: true },
      );
    },
    async unfollow(actor) {
      const target = await lookupActor(actor);
      await ctx().sendActivity(
        { identifier: ALICE },
        target,
        new Undo({
          id: new URL(`#undo-${crypto.randomUUID()}`, actorId),
          actor: actorId,
          object: new Follow({
            id: new URL(`#follow-${actor.href}`, actorId),
            actor: actorId,
            object: actor,
          }),
        }),
        { immediate: true },
      );
    },
    async waitFor(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const found = received.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = received.map((r) => r.type).join(", ") || "nothing";
          throw new Error(
            `Cannot find the activity waited for within ${timeoutMs} ms; got ${seen}`,
          );
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(left, 500));
          waiters.add(done);
        });
      }
    },
    async close() {
      await server.shutdown();
    },
  };
}
