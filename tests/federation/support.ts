/** A federating test server (listening, private addresses allowed) and a peer beside it. */
import type { DatabaseKind } from "../../server/db/connect.ts";
import { startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { type ActivityPubPeer, startActivityPubPeer } from "../../dev-support/activitypub-peer.ts";

/** Runs `run` with a federating server on a fresh `kind` database and a peer; stops both. */
export async function withPeer(
  kind: DatabaseKind,
  run: (server: TestServer, peer: ActivityPubPeer) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(kind, {
    federation: { enabled: true, allowPrivateAddress: true },
  });
  const peer = await startActivityPubPeer();
  try {
    await run(server, peer);
  } finally {
    await peer.close();
    await server.close();
  }
}

/** GETs an ActivityPub document of the server. */
export async function activityJson(server: TestServer, path: string): Promise<Response> {
  return await fetch(`${server.url}${path}`, {
    headers: { Accept: "application/activity+json" },
  });
}

/** Waits until `check` holds, polling, or fails after `timeoutMs` with `what`. */
export async function eventually(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error(`Cannot see ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
