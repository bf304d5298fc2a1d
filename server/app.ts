/** The HTTP application: routes, their middleware, and the one error handler. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { AppError, errorResponse } from "./errors.ts";
import { requestLog } from "./middleware/request-log.ts";
import { authenticate, requireScope } from "./middleware/authenticate.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { postEvents } from "./api/post-events.ts";
import { listEventsHandler } from "./api/list-events.ts";
import { getEventHandler } from "./api/get-event.ts";
import { createKeyHandler, listKeysHandler, revokeKeyHandler } from "./api/admin-keys.ts";
import { healthzHandler } from "./api/healthz.ts";
import { buildOpenApiDocument } from "./api/openapi.ts";
import { searchHandler } from "./api/search.ts";
import {
  getKeyHandler,
  patchKeyHandler,
  trustKeyHandler,
  untrustKeyHandler,
} from "./api/admin-key-review.ts";
import { aiSearchOpenApiPaths } from "./api/ai-search-openapi.ts";
import { backupHandler, backupOpenApiPaths } from "./api/admin-backup.ts";
import { createSite } from "./web/site.tsx";
import { mcpEndpoint } from "./mcp/endpoint.ts";
import { clientAddress } from "./client-address.ts";

/** Builds the application around its dependencies. */
export async function createApp(deps: AppDeps): Promise<Hono<AppEnv>> {
  const { config } = deps;
  const app = new Hono<AppEnv>();

  app.use("*", requestLog({ enabled: config.logRequests }));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });

  const keyAuth = await authenticate({ operatorKey: config.adminApiKey });
  const keyLimit = rateLimit({
    bucket: (c) => `key:${c.get("principal").keyId ?? "operator"}`,
    limitPerMinute: (c) => c.get("principal").rateLimitPerMinute,
  });
  const publicLimit = rateLimit({
    bucket: (c) => `ip:${clientAddress(c, config.trustProxy)}`,
    limitPerMinute: () => config.publicRateLimitPerMinute,
    policy: "public",
  });

  app.get("/healthz", healthzHandler);
  const openApi = buildOpenApiDocument({ ...aiSearchOpenApiPaths, ...backupOpenApiPaths });
  app.get("/api/v1/openapi.json", (c) => c.json(openApi));

  app.post("/api/v1/events", keyAuth, keyLimit, requireScope("events:write"), postEvents);
  app.get("/api/v1/events", publicLimit, listEventsHandler);
  app.get("/api/v1/events/:id", publicLimit, getEventHandler);
  app.get("/api/v1/search", publicLimit, searchHandler);
  app.all("/mcp", publicLimit, mcpEndpoint(deps));

  app.use("/api/v1/admin/*", keyAuth, keyLimit, requireScope("admin"));
  app.post("/api/v1/admin/keys", createKeyHandler);
  app.get("/api/v1/admin/keys", listKeysHandler);
  app.post("/api/v1/admin/keys/:ref/revoke", revokeKeyHandler);
  app.get("/api/v1/admin/keys/:ref", getKeyHandler);
  app.patch("/api/v1/admin/keys/:ref", patchKeyHandler);
  app.post("/api/v1/admin/keys/:ref/trust", trustKeyHandler);
  app.post("/api/v1/admin/keys/:ref/untrust", untrustKeyHandler);
  app.get("/api/v1/admin/backup", backupHandler);

  // The public site, dashboard and review queue (server/web/).
  app.route("/", await createSite(deps));

  app.notFound(() => {
    throw new AppError("not_found", "No such endpoint; see /api/v1/openapi.json.");
  });
  app.onError((err, c) => {
    if (!(err instanceof AppError)) {
      console.error(JSON.stringify({
        time: new Date().toISOString(),
        level: "error",
        request_id: c.get("requestId"),
        error: err instanceof Error ? err.stack ?? err.message : String(err),
      }));
    }
    return errorResponse(c, err);
  });
  return app;
}
