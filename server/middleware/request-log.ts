/** Middleware: gives each request an id (echoed as X-Request-Id) and logs one JSON line for it. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";

const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the request logger; `write` receives each line (stdout by default). */
export function requestLog(
  options: { enabled: boolean; write?: (line: string) => void },
): MiddlewareHandler<AppEnv> {
  const write = options.write ?? ((line: string) => console.log(line));
  return async function requestLogMiddleware(c, next) {
    const started = performance.now();
    const offered = c.req.header("X-Request-Id");
    const requestId = offered && CLIENT_REQUEST_ID.test(offered) ? offered : crypto.randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
    if (!options.enabled) return;
    write(JSON.stringify({
      time: new Date().toISOString(),
      request_id: requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      key: c.get("principal")?.prefix,
    }));
  };
}
