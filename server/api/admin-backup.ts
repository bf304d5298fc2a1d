/** GET /api/v1/admin/backup: a consistent copy of the embedded database, taken while it runs. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { AppError } from "../errors.ts";
import { bearer, error } from "./openapi-parts.ts";

/** The file name a backup taken at `at` is offered under (UTC, sortable, no colons). */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, "Z").replaceAll("-", "").replaceAll(":", "");
  return `events-backup-${stamp}.tar.gz`;
}

/** Streams a gzip'd tar of the embedded data directory; 409 on a PostgreSQL server. */
export async function backupHandler(c: Context<AppEnv>): Promise<Response> {
  const { db } = c.get("deps");
  if (!db.snapshot) {
    throw new AppError(
      "conflict",
      "This server uses PostgreSQL (DATABASE_URL): back it up with pg_dump, as the README's " +
        "Backups section shows.",
    );
  }
  const tar = await db.snapshot();
  // Compressed after the database lock is released: requests wait only for the copy itself.
  const body = tar.stream().pipeThrough(new CompressionStream("gzip"));
  return c.body(body, 200, {
    "Content-Type": "application/gzip",
    "Content-Disposition": `attachment; filename="${backupFileName(new Date())}"`,
    "Cache-Control": "no-store",
  });
}

/** The endpoint in the OpenAPI document. */
export const backupOpenApiPaths = {
  "/api/v1/admin/backup": {
    get: {
      summary: "Back up the embedded database while it runs (operators)",
      description:
        "A gzip'd tar of the PGlite data directory, consistent at one instant: restore it with " +
        "`npm run restore -- <file>` into an empty data directory. A server on PostgreSQL " +
        "answers 409: back it up with pg_dump.",
      security: bearer,
      responses: {
        200: {
          description: "The backup file.",
          content: { "application/gzip": { schema: { type: "string", format: "binary" } } },
        },
        401: error("Not authenticated."),
        403: error("The key lacks the admin scope."),
        409: error("The server uses PostgreSQL; use pg_dump."),
        429: error("Rate limit exceeded; see Retry-After."),
      },
    },
  },
};
