/** GET /api/v1/openapi.json: the OpenAPI 3.1 document, generated from the shared zod schemas. */
import { z } from "zod";
import { EventBatch, EventInput } from "../../shared/event-schema.ts";
import {
  ApiKeyView,
  BatchResult,
  CreateKeyRequest,
  ErrorBody,
  StoredEvent,
  ValidationErrorBody,
} from "../../shared/api-schemas.ts";

import { bearer, dataOf, error, json, keyRef, listParams, ref } from "./openapi-parts.ts";

const schema = (s: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(s, { io, target: "draft-2020-12", unrepresentable: "any" });

const rateLimited = error("Rate limit exceeded; see Retry-After.");

/** Builds the document; extra paths (search, trust, MCP) are merged in by their modules. */
export function buildOpenApiDocument(extraPaths: Record<string, unknown> = {}) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Tech events API",
      version: "1.0.0",
      description:
        "Contributors push batches of technology events; anyone can list and search them.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: {
        Event: schema(EventInput, "input"),
        EventBatch: schema(EventBatch, "input"),
        StoredEvent: schema(StoredEvent, "output"),
        BatchResult: schema(BatchResult, "output"),
        ValidationError: schema(ValidationErrorBody, "output"),
        Error: schema(ErrorBody, "output"),
        CreateKeyRequest: schema(CreateKeyRequest, "input"),
        ApiKey: schema(ApiKeyView, "output"),
      },
    },
    paths: {
      "/api/v1/events": {
        post: {
          summary: "Submit a batch of 1 to 100 events (upserted by external_id and platform)",
          security: bearer,
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("EventBatch") } },
          },
          responses: {
            200: json(ref("BatchResult"), "Counts of inserted and updated events."),
            400: json(ref("ValidationError"), "The batch failed validation; nothing was stored."),
            401: error("Missing, malformed, unknown or revoked key."),
            403: error("The key lacks the events:write scope."),
            413: error("Body over 4 MiB."),
            429: rateLimited,
          },
        },
        get: {
          summary:
            "List upcoming events, soonest first (with q: every word first, then most words)",
          parameters: listParams,
          responses: {
            200: json({
              type: "object",
              properties: {
                data: { type: "array", items: ref("StoredEvent") },
                next_cursor: { type: ["string", "null"] },
              },
            }, "A page of events."),
            400: json(ref("ValidationError"), "A query parameter is invalid."),
            429: rateLimited,
          },
        },
      },
      "/api/v1/events/{id}": {
        get: {
          summary: "One event",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            200: json(dataOf(ref("StoredEvent")), "The event."),
            404: error("No such event."),
          },
        },
      },
      "/api/v1/admin/keys": {
        post: {
          summary: "Create an API key (operators); the full key is in this response only",
          security: bearer,
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("CreateKeyRequest") } },
          },
          responses: {
            201: json(dataOf(ref("ApiKey")), "The key record plus `key`."),
            400: json(ref("ValidationError"), "Invalid request."),
            401: error("Not authenticated."),
            403: error("The key lacks the admin scope."),
          },
        },
        get: {
          summary: "List API keys (operators)",
          security: bearer,
          parameters: [{
            name: "status",
            in: "query",
            required: false,
            schema: { type: "string", enum: ["untrusted", "pending", "trusted", "revoked"] },
          }],
          responses: {
            200: json(dataOf({ type: "array", items: ref("ApiKey") }), "Keys, newest first."),
          },
        },
      },
      "/api/v1/admin/keys/{ref}/revoke": {
        post: {
          summary: "Revoke a key: 401 from its next request; its events stay visible",
          security: bearer,
          parameters: [keyRef],
          responses: {
            200: json(dataOf(ref("ApiKey")), "The revoked key."),
            404: error("No such key."),
          },
        },
      },
      "/healthz": {
        get: {
          summary: "Health: database reachable and schema current",
          responses: {
            200: { description: "Healthy." },
            503: { description: "Not able to serve." },
          },
        },
      },
      ...extraPaths,
    },
  };
}
