/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document, generated from the declared routes (their
 * zod schemas validate the requests too) when it is first asked for.
 */
import { createRoute, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { HEADERS, json } from "./responses.ts";

/** The project's licence, as the document states it. */
const LICENSE = { name: "MIT", identifier: "MIT" };

const TAGS = [
  { name: "Events", description: "Push, read and remove events." },
  { name: "Search", description: "Text, semantic and hybrid search." },
  { name: "Operators", description: "Keys, trust and spam removal; needs the admin scope." },
  { name: "Service", description: "Health and this document." },
];

const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export const openApiRoute = createRoute({
  method: "get",
  path: "/api/v1/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["Service"],
  summary: "This OpenAPI 3.1 document",
  security: [],
  responses: { 200: json(OpenApiDocument, "The OpenAPI 3.1 document of the HTTP API.") },
});

/** Generates the document of every route mounted on `app`. */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>) {
  const registry = app.openAPIRegistry;
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: 'An API key: "Authorization: Bearer evk_…". Operations list the scopes ' +
      "(events:write, admin) of which the key needs one.",
  });
  for (const [name, header] of Object.entries(HEADERS)) {
    registry.registerComponent("headers", name, header);
  }
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Tech events API",
      version: "1.0.0",
      description: "Contributors push batches of technology events with an API key; anyone " +
        "can list and search them. Every error body is JSON: a 400 has `error` and `details`, " +
        "any other error `error`, `code` and `message`.",
      license: LICENSE,
    },
    servers: [{ url: "/", description: "This server." }],
    tags: TAGS,
  });
}

/** Answers the document of `app`, generated once, after every route is mounted. */
export function openApiHandler(
  app: OpenAPIHono<AppEnv>,
): RouteHandler<typeof openApiRoute, AppEnv> {
  let document: z.infer<typeof OpenApiDocument> | undefined;
  return (c) => {
    document ??= buildOpenApiDocument(app) as z.infer<typeof OpenApiDocument>;
    return c.json(document, 200);
  };
}
