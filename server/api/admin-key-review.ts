/**
 * Operator review of keys: a key with its first batch, trust and untrust, and its rate limit.
 * Trust changes wake the embedding worker, which embeds every event the key last wrote.
 */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { firstBatchOf } from "../db/key-trust.ts";
import { changeKeyRate, trustKey, untrustKey } from "../auth/key-decisions.ts";
import { KeyPatch, KeyReview } from "../../shared/key-schemas.ts";
import { errorResponse, json } from "./responses.ts";
import {
  currentKeyView,
  KeyData,
  keyFromPath,
  KeyRefParams,
  keyView,
  operatorName,
} from "./admin-key-ref.ts";

const operators = [{ bearerAuth: ["admin"] }];
const noSuchKey = errorResponse("not_found", "No key has this id or prefix.");

export const getKeyRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/keys/{ref}",
  operationId: "getKey",
  tags: ["Operators"],
  summary: "Get a key with its first batch, for review",
  security: operators,
  request: { params: KeyRefParams },
  responses: {
    200: json(z.object({ data: KeyReview }), "The key and its first batch (null before one)."),
    404: noSuchKey,
  },
});

/** The key and its first accepted batch. */
export const getKeyHandler: RouteHandler<typeof getKeyRoute, AppEnv> = async (c) => {
  const key = await keyFromPath(c, c.req.valid("param").ref);
  const firstBatch = await firstBatchOf(c.get("deps").db.sql, key.id);
  return c.json({ data: { ...keyView(key), first_batch: firstBatch } }, 200);
};

export const trustKeyRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/keys/{ref}/trust",
  operationId: "trustKey",
  tags: ["Operators"],
  summary: "Trust a key",
  description: "Every current and future event the key last wrote gets a vector and enters AI " +
    "search, with no action by the contributor.",
  security: operators,
  request: { params: KeyRefParams },
  responses: {
    200: json(KeyData, "The key, now trusted."),
    404: noSuchKey,
    409: errorResponse("conflict", "The key is revoked and cannot be trusted."),
  },
});

/** The key's events enter AI search. */
export const trustKeyHandler: RouteHandler<typeof trustKeyRoute, AppEnv> = async (c) => {
  const key = await keyFromPath(c, c.req.valid("param").ref);
  await trustKey(c.get("deps"), key, operatorName(c));
  return c.json({ data: await currentKeyView(c, key.id) }, 200);
};

export const untrustKeyRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/keys/{ref}/untrust",
  operationId: "untrustKey",
  tags: ["Operators"],
  summary: "Withdraw trust from a key",
  description: "The key's events leave AI search at once.",
  security: operators,
  request: { params: KeyRefParams },
  responses: { 200: json(KeyData, "The key, now untrusted."), 404: noSuchKey },
});

/** The key's events leave AI search at once. */
export const untrustKeyHandler: RouteHandler<typeof untrustKeyRoute, AppEnv> = async (c) => {
  const key = await keyFromPath(c, c.req.valid("param").ref);
  await untrustKey(c.get("deps"), key, operatorName(c));
  return c.json({ data: await currentKeyView(c, key.id) }, 200);
};

export const patchKeyRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/keys/{ref}",
  operationId: "updateKey",
  tags: ["Operators"],
  summary: "Change a key's rate limit",
  description: "Takes effect from the key's next request.",
  security: operators,
  request: {
    params: KeyRefParams,
    body: {
      required: true,
      description: "a JSON object with rate_limit_per_minute",
      content: { "application/json": { schema: KeyPatch } },
    },
  },
  responses: { 200: json(KeyData, "The key with its new limit."), 404: noSuchKey },
});

/** Changes the key's rate limit. */
export const patchKeyHandler: RouteHandler<typeof patchKeyRoute, AppEnv> = async (c) => {
  const key = await keyFromPath(c, c.req.valid("param").ref);
  const { rate_limit_per_minute } = c.req.valid("json");
  await changeKeyRate(c.get("deps"), {
    key,
    perMinute: rate_limit_per_minute,
    decidedBy: operatorName(c),
  });
  return c.json({ data: await currentKeyView(c, key.id) }, 200);
};
