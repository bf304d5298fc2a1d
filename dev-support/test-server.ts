/**
 * The service on a fresh test database: listening on a free loopback port (startTestServer), or
 * in-process (startTestApp), where requests go straight to the app's `fetch` with the same deps
 * and no socket. Both answer `server.fetch(...)` and every helper that takes their `url`.
 */
import type { DatabaseKind } from "../server/db/connect.ts";
import { type Config, configWith } from "../server/config.ts";
import { generateApiKey } from "../shared/api-key-format.ts";
import { openService, type RunningService, startService } from "../server/serve.ts";
import { createTestDatabase, type DatabaseLocation } from "./databases.ts";
import { registerInProcessApp, testFetch, type TestRequestInit } from "./in-process-fetch.ts";

/** A running test server, listening or in-process. */
export interface TestServer {
  /** Its base URL; an in-process app's URL is served by `fetch` and testFetch only. */
  url: string;
  /** The operator key (ADMIN_API_KEY) of this server. */
  adminKey: string;
  kind: DatabaseKind;
  service: RunningService;
  location: DatabaseLocation;
  /** fetch for this server: a path ("/api/v1/events") is taken relative to `url`. */
  fetch(input: string | URL | Request, init?: TestRequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Settings a test may change. */
export type TestServerOptions = Partial<Omit<Config, "port" | "host" | "dataDir" | "databaseUrl">>;

function testConfig(
  location: DatabaseLocation,
  adminKey: string,
  options: TestServerOptions,
): Config {
  return configWith({
    port: 0,
    host: "127.0.0.1",
    dataDir: location.dataDir,
    databaseUrl: location.databaseUrl,
    adminApiKey: adminKey,
    defaultRateLimitPerMinute: 60,
    publicRateLimitPerMinute: 10_000,
    trustProxy: false,
    logRequests: false,
    // The model's thread at the server's priority: at the default (only idle CPU) a test waiting
    // for vectors stalls whenever another test keeps the cores busy.
    embeddings: { provider: "local", localNiceness: 0 },
    ...options,
  });
}

function fetchAt(url: string): TestServer["fetch"] {
  return (input, init) =>
    testFetch(typeof input === "string" && input.startsWith("/") ? `${url}${input}` : input, init);
}

/** Starts the real server, listening on a loopback port, on a fresh database of `kind`. */
export async function startTestServer(
  kind: DatabaseKind,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const location = await createTestDatabase(kind, { thisProcessOnly: true });
  const adminKey = options.adminApiKey ?? generateApiKey();
  let service: RunningService;
  try {
    service = await startService(testConfig(location, adminKey, options));
  } catch (err) {
    await location.drop();
    throw err;
  }
  return {
    url: service.url,
    adminKey,
    kind,
    service,
    location,
    fetch: fetchAt(service.url),
    close: async () => {
      await service.shutdown();
      await location.drop();
    },
  };
}

/**
 * Builds the service in-process on a fresh database of `kind`, with the deps startTestServer's
 * has, and no socket: requests come from 127.0.0.1 unless `clientAddress` says otherwise. For a
 * client that needs a real URL (a child process, a browser), use startTestServer.
 */
export async function startTestApp(
  kind: DatabaseKind,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const location = await createTestDatabase(kind, { thisProcessOnly: true });
  const adminKey = options.adminApiKey ?? generateApiKey();
  let opened;
  try {
    opened = await openService(testConfig(location, adminKey, options));
  } catch (err) {
    await location.drop();
    throw err;
  }
  const { app, deps, close } = opened;
  const { url, unregister } = registerInProcessApp((request, info) => app.fetch(request, info));
  return {
    url,
    adminKey,
    kind,
    service: { url, deps, shutdown: close },
    location,
    fetch: fetchAt(url),
    close: async () => {
      unregister();
      await close();
      await location.drop();
    },
  };
}

/** A key made through the operator API, as a contributor would receive it. */
export interface CreatedKey {
  id: string;
  prefix: string;
  key: string;
}

/** Creates an API key on the server with the operator key. */
export async function createApiKey(
  server: Pick<TestServer, "url" | "adminKey">,
  options: {
    contributor?: string;
    name?: string;
    scopes?: string[];
    rate_limit_per_minute?: number;
  } = {},
): Promise<CreatedKey> {
  const res = await testFetch(`${server.url}/api/v1/admin/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      contributor: options.contributor ?? "test-contributor",
      name: options.name ?? "test key",
      scopes: options.scopes ?? ["events:write"],
      ...(options.rate_limit_per_minute
        ? { rate_limit_per_minute: options.rate_limit_per_minute }
        : {}),
    }),
  });
  const body = await res.json();
  if (res.status !== 201) {
    throw new Error(`Cannot create key: ${res.status} ${JSON.stringify(body)}`);
  }
  return { id: body.data.id, prefix: body.data.prefix, key: body.data.key };
}

/** POSTs a batch with a key; returns status, headers and parsed body. */
export async function postBatch(
  url: string,
  key: string | null,
  body: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const res = await testFetch(`${url}/api/v1/events`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
