/** GET /api/v1/admin/backup: a consistent copy of the embedded database, taken while it runs. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { AppError } from "../errors.ts";
import { errorResponse } from "./responses.ts";

/** The file name a backup taken at `at` is offered under (UTC, sortable, no colons). */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, "Z").replaceAll("-", "").replaceAll(":", "");
  return `events-backup-${stamp}.tar.gz`;
}

export const backupRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/backup",
  operationId: "backupDatabase",
  tags: ["Operators"],
  summary: "Back up the embedded database while it runs",
  description: "A gzip'd tar of the PGlite data directory, consistent at one instant: restore it " +
    "with `npm run restore -- <file>` into an empty data directory. A server on PostgreSQL " +
    "answers 409: back it up with pg_dump.",
  security: [{ bearerAuth: ["admin"] }],
  responses: {
    200: {
      description: "The backup file.",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="events-backup-<UTC time>.tar.gz"',
          required: true,
          schema: { type: "string" },
        },
      },
      content: {
        "application/gzip": { schema: { type: "string", contentMediaType: "application/gzip" } },
      },
    },
    409: errorResponse("conflict", "The server uses PostgreSQL: back it up with pg_dump."),
  },
});

/** Streams a gzip'd tar of the embedded data directory; 409 on a PostgreSQL server. */
export const backupHandler: RouteHandler<typeof backupRoute, AppEnv> = async (c) => {
  const { db } = c.get("deps");
  if (!db.snapshot) {
    throw new AppError(
      "conflict",
      "This server uses PostgreSQL (DATABASE_URL): back it up with pg_dump, as docs/operating.md's " +
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
};
