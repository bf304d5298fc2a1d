/**
 * The fediverse blocklist: GET and POST /api/v1/admin/federation/blocks, DELETE
 * /api/v1/admin/federation/blocks/{domain}. A blocked domain's inbox requests get 403 and
 * nothing is delivered to it (docs/federation.md).
 */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { listBlocks } from "../db/federation-blocks.ts";
import { blockDomain, unblockDomain } from "../federation/domain-blocks.ts";
import { errorResponse, json } from "./responses.ts";

const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$/;
const DOMAIN_MESSAGE = "domain must be a host name such as mastodon.example, optionally with " +
  ":port; no scheme, path or wildcard";

const Domain = z.string({ error: () => DOMAIN_MESSAGE }).trim().toLowerCase()
  .regex(DOMAIN, { error: DOMAIN_MESSAGE }).max(253, { error: DOMAIN_MESSAGE })
  .meta({
    description: "A remote server's host name (its subdomains are blocked with it), or " +
      "host:port.",
    example: "spam.example",
  });

const BlockBody = z.strictObject({ domain: Domain }).meta({ id: "FederationBlockRequest" });

const Block = z.object({
  domain: z.string(),
  blocked_by: z.string().meta({ description: "The operator who blocked it." }),
  created_at: z.string().meta({ format: "date-time" }),
}).meta({ id: "FederationBlock" });

export const listBlocksRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/federation/blocks",
  operationId: "listFederationBlocks",
  tags: ["Operators"],
  summary: "List the blocked fediverse domains",
  security: [{ bearerAuth: ["admin"] }],
  responses: { 200: json(z.object({ data: z.array(Block) }), "Every blocked domain.") },
});

export const addBlockRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/federation/blocks",
  operationId: "blockFederationDomain",
  tags: ["Operators"],
  summary: "Block a fediverse domain",
  description: "Its servers' inbox requests are refused with 403 and nothing is delivered to " +
    "them; their follows stay recorded, unused, until the block is lifted.",
  security: [{ bearerAuth: ["admin"] }],
  request: {
    body: {
      required: true,
      description: "the domain to block",
      content: { "application/json": { schema: BlockBody } },
    },
  },
  responses: {
    201: json(z.object({ data: Block }), "Blocked."),
    200: json(z.object({ data: Block }), "It was blocked already."),
  },
});

export const removeBlockRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/federation/blocks/{domain}",
  operationId: "unblockFederationDomain",
  tags: ["Operators"],
  summary: "Lift the block of a fediverse domain",
  security: [{ bearerAuth: ["admin"] }],
  request: { params: z.object({ domain: Domain }) },
  responses: {
    204: { description: "Unblocked." },
    404: errorResponse("not_found", "The domain is not blocked."),
  },
});

function decidedBy(c: Context<AppEnv>): string {
  const principal = c.get("principal");
  return principal.keyId === null ? "ADMIN_API_KEY" : principal.prefix;
}

function blockView(b: { domain: string; blocked_by: string; created_at: Date }) {
  return { ...b, created_at: b.created_at.toISOString() };
}

/** Lists the blocks. */
export const listBlocksHandler: RouteHandler<typeof listBlocksRoute, AppEnv> = async (c) => {
  const blocks = await listBlocks(c.get("deps").db.sql);
  return c.json({ data: blocks.map(blockView) }, 200);
};

/** Blocks a domain. */
export const addBlockHandler: RouteHandler<typeof addBlockRoute, AppEnv> = async (c) => {
  const { domain } = c.req.valid("json");
  const sql = c.get("deps").db.sql;
  const added = await blockDomain(sql, { domain, decidedBy: decidedBy(c) });
  const block = (await listBlocks(sql)).find((b) => b.domain === domain)!;
  return added ? c.json({ data: blockView(block) }, 201) : c.json({ data: blockView(block) }, 200);
};

/** Lifts a block. */
export const removeBlockHandler: RouteHandler<typeof removeBlockRoute, AppEnv> = async (c) => {
  const { domain } = c.req.valid("param");
  await unblockDomain(c.get("deps").db.sql, { domain, decidedBy: decidedBy(c) });
  return c.body(null, 204);
};
