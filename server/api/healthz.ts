/** GET /healthz: whether the database answers and its schema is current. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { pendingMigrations } from "../db/migrate.ts";
import type { AiSearchHealth } from "../embeddings/ai-search.ts";
import type { StorageHealth } from "../db/disk-space.ts";
import { errorSchema, json } from "./responses.ts";

const AiHealth = z.object({
  state: z.enum(["ok", "degraded", "unavailable"]).meta({
    description: "degraded: events wait for vectors while the embedding provider fails; they " +
      "are kept and embedded once it recovers.",
  }),
  available: z.boolean(),
  reason: z.string().optional().meta({ description: "Why AI search is unavailable." }),
  model: z.string(),
  worker: z.enum(["in-process", "external"]),
  in_ai_search: z.number().int().optional().meta({
    description: "Events semantic search can return.",
  }),
  waiting_for_vectors: z.number().int().optional(),
  failing: z.number().int().optional().meta({
    description: "Of the waiting events, those held back after failed attempts.",
  }),
  last_error: z.string().nullable().optional(),
  retrying_at: z.string().nullable().optional().meta({
    description: "While the provider fails: when this process's worker tries it again.",
  }),
});

// What AiSearch.health() reports and what the document says must name the same fields: a field
// added there fails the type check here instead of failing clients that validate answers.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? [keyof B] extends [keyof A] ? true : false
  : false;
const _documented: SameKeys<AiSearchHealth, z.infer<typeof AiHealth>> = true;
const _typed: z.infer<typeof AiHealth> = {} as AiSearchHealth;

const Storage = z.object({
  free_bytes: z.number().int().meta({ description: "Free space, rounded down to a whole MiB." }),
  min_free_bytes: z.number().int().meta({
    description: "The reserve (DATA_MIN_FREE_MB): below it, requests that write get 503.",
  }),
  writes_accepted: z.boolean(),
});
const _storageDocumented: SameKeys<StorageHealth, z.infer<typeof Storage>> = true;

const Health = z.object({
  status: z.enum(["ok", "degraded", "unavailable"]).meta({
    description: "ok: serving; degraded: migrations pending (503), or the embedded database's " +
      "disk nearly full (200: reads are served, writes refused); unavailable: no database.",
  }),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    reachable: z.boolean(),
    pending_migrations: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
  ai_search: AiHealth.optional().meta({
    description: "AI search; its absence does not stop the service.",
  }),
  storage: Storage.optional().meta({
    description: "The embedded database's disk (absent on PostgreSQL).",
  }),
}).meta({ id: "Health" });

export const healthzRoute = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  tags: ["Service"],
  summary: "Health of the service",
  description: "For load balancers and monitoring. Caches must ask again every time " +
    "(no-cache); an unchanged state answers 304 to If-None-Match.",
  security: [],
  responses: {
    200: json(Health, "The service can serve requests."),
    503: json(
      z.union([Health, errorSchema("service_unavailable")]),
      "The service cannot serve requests; the body says why (or, when the database is gone " +
        "before the health check runs, the error body).",
    ),
  },
});

/** 200 when the service can serve requests, 503 with the reason when it cannot. */
export const healthzHandler: RouteHandler<typeof healthzRoute, AppEnv> = async (c) => {
  const { db, ai } = c.get("deps");
  c.header("Cache-Control", "no-cache");
  try {
    const pending = await pendingMigrations(db.sql);
    if (pending.length > 0) {
      return c.json({
        status: "degraded" as const,
        database: { kind: db.kind, reachable: true, pending_migrations: pending },
      }, 503);
    }
    // AI search being unavailable does not stop the service; it is reported, not failed on.
    // Nor does a nearly full disk: reads go on while writes wait for space.
    const storage = c.get("deps").storage?.health();
    return c.json({
      status: storage && !storage.writes_accepted ? "degraded" as const : "ok" as const,
      database: { kind: db.kind, reachable: true, pending_migrations: pending },
      ai_search: await ai.health(),
      ...(storage ? { storage } : {}),
    }, 200);
  } catch (err) {
    return c.json({
      status: "unavailable" as const,
      database: { kind: db.kind, reachable: false, error: (err as Error).message },
    }, 503);
  }
};
