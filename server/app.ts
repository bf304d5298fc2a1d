/** The HTTP application: the API's declared routes, MCP, the site, and the one error handler. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { isExpectedError } from "./errors.ts";
import { errorResponse } from "./error-response.ts";
import { logProblem } from "./log-line.ts";
import { requestLog } from "./middleware/request-log.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { methodNotAllowed } from "./middleware/method-not-allowed.ts";
import { validationHook } from "./api/validation-hook.ts";
import { mountApiRoutes } from "./api/api-routes.ts";
import type { Guards } from "./api/mount-endpoint.ts";
import { createSite } from "./web/site.tsx";
import { mcpEndpoint } from "./mcp/endpoint.ts";
import { clientAddress } from "./client-address.ts";
import { refuseWritesWhenDiskLow } from "./middleware/refuse-writes.ts";

/** Builds the application around its dependencies. */
export async function createApp(deps: AppDeps): Promise<OpenAPIHono<AppEnv>> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use("*", requestLog({ enabled: config.logRequests }));
  app.use("*", (_c, next) => deps.requests.during(next));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  // ActivityPub (server/federation/): WebFinger and /ap/*, beside the site and the API.
  const { federation } = deps;
  if (federation) {
    app.use("*", (c, next) => federation.fetch(c.req.raw, () => next().then(() => c.res)));
  }
  if (deps.storage) app.use("*", refuseWritesWhenDiskLow(deps.storage));
  // A push is in flight from its arrival: its key's look-up waits for the database as well.
  app.use(
    "/api/v1/events",
    (c, next) => c.req.method === "POST" ? deps.pushes.during(next) : next(),
  );

  const guards: Guards = {
    authenticate: await authenticate({ operatorKey: config.adminApiKey }),
    keyRateLimit: rateLimit({
      bucket: (c) => `key:${c.get("principal").keyId ?? "operator"}`,
      limitPerMinute: (c) => c.get("principal").rateLimitPerMinute,
    }),
    publicRateLimit: rateLimit({
      bucket: (c) => `ip:${clientAddress(c, config.trustProxy)}`,
      limitPerMinute: () => config.publicRateLimitPerMinute,
      policy: "public",
    }),
  };
  // The HTTP API (server/api/): each route declared once, documented at /api/v1/openapi.json.
  mountApiRoutes(app, guards);
  // The MCP server (server/mcp/) speaks JSON-RPC, not REST: not an OpenAPI operation.
  app.all("/mcp", guards.publicRateLimit, mcpEndpoint(deps));
  // The public site, dashboard and review queue (server/web/).
  const { site, pageNotFound } = await createSite(deps);
  app.route("/", site);

  app.notFound(methodNotAllowed(app, {
    notFoundMessage: "No such endpoint; see /api/v1/openapi.json.",
    page: pageNotFound,
  }));
  app.onError((err, c) => {
    if (!isExpectedError(err)) {
      logProblem({ level: "error", request_id: c.get("requestId"), error: err });
    }
    return errorResponse(c, err);
  });
  return app;
}
