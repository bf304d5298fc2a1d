/** GET /api/v1/admin/audit: the operators' decisions, newest first, with a cursor. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { type DecisionRecord, listOperatorDecisions } from "../db/operator-decisions.ts";
import { json } from "./responses.ts";

const AuditQuery = z.strictObject({
  limit: z.coerce.number({ error: () => "limit must be a whole number from 1 to 100" })
    .int({ error: "limit must be a whole number from 1 to 100" })
    .min(1, { error: "limit must be a whole number from 1 to 100" })
    .max(100, { error: "limit must be a whole number from 1 to 100" })
    .default(50).meta({ description: "Decisions per page, 1 to 100; default 50." }),
  cursor: z.string().regex(/^[1-9][0-9]{0,17}$/, {
    error: "cursor must be the next_cursor of a previous page, unchanged",
  }).optional().meta({ description: "next_cursor of the previous page." }),
});

const AuditEntry = z.object({
  id: z.string().meta({ description: "Increases with every decision recorded." }),
  decided_at: z.string().meta({ description: "When, UTC." }),
  decided_by: z.string().meta({
    description: "Who: the operator key's display prefix, ADMIN_API_KEY, or the operator's " +
      "site address.",
  }),
  action: z.string().meta({
    description:
      "What: trust, untrust, revoke, rate_change, delete_events, clean_up, block_domain, " +
      "unblock_domain (and " +
      "split or join of duplicates).",
  }),
  contributor_id: z.string().nullable(),
  contributor: z.string().nullable(),
  key_id: z.string().nullable(),
  key_prefix: z.string().nullable(),
  event_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).meta({
    description: "The counts: key_events (events the key last wrote), events_deleted, " +
      "keys_revoked, sessions_ended; from and to of a rate change.",
  }),
}).meta({ id: "AuditEntry" });

export const auditRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/audit",
  operationId: "listAudit",
  tags: ["Operators"],
  summary: "List operator decisions, newest first",
  description: "Every trust, untrust, revoke, rate change, deletion of a contributor's events " +
    "and clean-up, with who decided, when, and the counts.",
  security: [{ bearerAuth: ["admin"] }],
  request: { query: AuditQuery },
  responses: {
    200: json(
      z.object({ data: z.array(AuditEntry), next_cursor: z.string().nullable() }),
      "A page of decisions; next_cursor is null on the last.",
    ),
  },
});

/** A recorded decision as the API shows it. */
function entryView(record: DecisionRecord): z.infer<typeof AuditEntry> {
  return { ...record, decided_at: record.decided_at.toISOString() };
}

/** Lists a page of decisions. */
export const auditHandler: RouteHandler<typeof auditRoute, AppEnv> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await listOperatorDecisions(c.get("deps").db.sql, {
    limit: limit + 1,
    before: cursor,
  });
  const page = rows.slice(0, limit);
  return c.json({
    data: page.map(entryView),
    next_cursor: rows.length > limit ? page[page.length - 1].id : null,
  }, 200);
};
