/** Operator endpoints for API keys: create, list, revoke. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { CreateKeyRequest, KEY_STATUSES, NewApiKey } from "../../shared/key-schemas.ts";
import { ApiKeyView } from "../../shared/key-schemas.ts";
import { listApiKeys } from "../db/api-keys.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { revokeKey } from "../auth/key-decisions.ts";
import { errorResponse, json } from "./responses.ts";
import { KeyData, keyFromPath, KeyRefParams, keyView, operatorName } from "./admin-key-ref.ts";

const operators = [{ bearerAuth: ["admin"] }];

export const createKeyRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/keys",
  operationId: "createKey",
  tags: ["Operators"],
  summary: "Create an API key",
  description: "The full key is in this response only: keep it. With `expires_at`, the key " +
    "gets 401 from that time on, saying it expired.",
  security: operators,
  request: {
    body: {
      required: true,
      description: "a JSON object with contributor and name",
      content: { "application/json": { schema: CreateKeyRequest } },
    },
  },
  responses: { 201: json(z.object({ data: NewApiKey }), "The new key, with `key` itself.") },
});

/** Issues a key; the answer is the only place the full key ever appears. */
export const createKeyHandler: RouteHandler<typeof createKeyRoute, AppEnv> = async (c) => {
  const request = c.req.valid("json");
  const { deps, principal } = { deps: c.get("deps"), principal: c.get("principal") };
  const { key, record } = await issueApiKey(deps.db.sql, {
    contributor: request.contributor,
    name: request.name,
    scopes: [...new Set(request.scopes)],
    rateLimitPerMinute: request.rate_limit_per_minute ?? deps.config.defaultRateLimitPerMinute,
    createdBy: principal.prefix,
    expiresAt: request.expires_at ?? null,
  });
  return c.json({ data: { ...keyView(record), key } }, 201);
};

const ListKeysQuery = z.strictObject({
  status: z.enum(KEY_STATUSES, {
    error: () => `status must be one of ${KEY_STATUSES.join(", ")}`,
  }).optional().meta({ description: "Only keys in this status." }),
});

export const listKeysRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/keys",
  operationId: "listKeys",
  tags: ["Operators"],
  summary: "List API keys",
  security: operators,
  request: { query: ListKeysQuery },
  responses: { 200: json(z.object({ data: z.array(ApiKeyView) }), "Keys, newest first.") },
});

/** Lists keys, newest first. */
export const listKeysHandler: RouteHandler<typeof listKeysRoute, AppEnv> = async (c) => {
  const { status } = c.req.valid("query");
  const keys = await listApiKeys(c.get("deps").db.sql, { status });
  return c.json({ data: keys.map(keyView) }, 200);
};

export const revokeKeyRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/keys/{ref}/revoke",
  operationId: "revokeKey",
  tags: ["Operators"],
  summary: "Revoke a key",
  description: "The key gets 401 from its next request on; its events stay visible but leave " +
    "AI search. Revoking twice keeps the first time.",
  security: operators,
  request: { params: KeyRefParams },
  responses: {
    200: json(KeyData, "The revoked key."),
    404: errorResponse("not_found", "No key has this id or prefix."),
  },
});

/** Revokes the key: 401 from its next request on. */
export const revokeKeyHandler: RouteHandler<typeof revokeKeyRoute, AppEnv> = async (c) => {
  const key = await keyFromPath(c, c.req.valid("param").ref);
  const revoked = await revokeKey(c.get("deps"), key, operatorName(c));
  return c.json({ data: keyView(revoked) }, 200);
};
