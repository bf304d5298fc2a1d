/** The real service on a fresh test database, listening on a free loopback port. */
import type { DatabaseKind } from "../../server/db/connect.ts";
import type { Config } from "../../server/config.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { type RunningService, startService } from "../../server/serve.ts";
import { createTestDatabase, type DatabaseLocation } from "./databases.ts";

/** A running test server. */
export interface TestServer {
  url: string;
  /** The operator key (ADMIN_API_KEY) of this server. */
  adminKey: string;
  kind: DatabaseKind;
  service: RunningService;
  location: DatabaseLocation;
  close(): Promise<void>;
}

/** Settings a test may change. */
export type TestServerOptions = Partial<Omit<Config, "port" | "host" | "dataDir" | "databaseUrl">>;

/** Starts the real server on a fresh database of `kind`. */
export async function startTestServer(
  kind: DatabaseKind,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const location = await createTestDatabase(kind);
  const adminKey = options.adminApiKey ?? generateApiKey();
  const service = await startService({
    port: 0,
    host: "127.0.0.1",
    dataDir: location.dataDir,
    databaseUrl: location.databaseUrl,
    adminApiKey: adminKey,
    defaultRateLimitPerMinute: 60,
    publicRateLimitPerMinute: 10_000,
    trustProxy: false,
    logRequests: false,
    ...options,
  });
  return {
    url: service.url,
    adminKey,
    kind,
    service,
    location,
    close: async () => {
      await service.shutdown();
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
  const res = await fetch(`${server.url}/api/v1/admin/keys`, {
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
  const res = await fetch(`${url}/api/v1/events`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
