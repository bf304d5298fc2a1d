/** OpenAPI paths of search and key review, merged into the document by the app. */
import { bearer, dataOf, error, json, keyRef, listParams, ref } from "./openapi-parts.ts";

const keyData = json(dataOf(ref("ApiKey")), "The key as it is now.");
const adminErrors = {
  401: error("Not authenticated."),
  403: error("The key lacks the admin scope."),
  404: error("No such key."),
};

const filterParams = listParams.filter((p) => p.name !== "q" && p.name !== "cursor");

/** Paths to add to the OpenAPI document. */
export const aiSearchOpenApiPaths = {
  "/api/v1/search": {
    get: {
      summary: "Search events by text, by meaning (semantic), or both fused (hybrid)",
      description:
        "semantic and the semantic half of hybrid only ever return events in AI search " +
        "(last written by a trusted key). Without a usable vector store, semantic answers 503 " +
        "saying why, and hybrid falls back to text with a `degraded` note.",
      parameters: [
        { name: "q", in: "query", required: true, schema: { type: "string" } },
        {
          name: "mode",
          in: "query",
          required: false,
          schema: { type: "string", enum: ["text", "semantic", "hybrid"], default: "hybrid" },
        },
        ...filterParams,
      ],
      responses: {
        200: json({
          type: "object",
          properties: {
            data: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  event: ref("StoredEvent"),
                  score: { type: "number" },
                  ranks: {
                    type: "object",
                    description: "Hybrid only: 1-based place in each ranking, null if absent.",
                    properties: {
                      text: { type: ["integer", "null"] },
                      semantic: { type: ["integer", "null"] },
                    },
                  },
                },
                required: ["event", "score"],
              },
            },
            mode: { type: "string", enum: ["text", "semantic", "hybrid"] },
            degraded: { type: "string" },
          },
          required: ["data", "mode"],
        }, "Results, best first."),
        400: json(ref("ValidationError"), "A query parameter is invalid."),
        429: error("Rate limit exceeded; see Retry-After."),
        503: error("AI search is unavailable here (semantic mode); the message says why."),
      },
    },
  },
  "/api/v1/admin/keys/{ref}": {
    get: {
      summary: "One key with its first accepted batch, for review",
      security: bearer,
      parameters: [keyRef],
      responses: {
        200: json({
          type: "object",
          properties: {
            data: {
              allOf: [ref("ApiKey"), {
                type: "object",
                properties: {
                  first_batch: {
                    type: ["object", "null"],
                    properties: {
                      received_at: { type: "string" },
                      events: { type: "array", items: ref("StoredEvent") },
                    },
                  },
                },
              }],
            },
          },
        }, "The key and its first batch (null before one)."),
        ...adminErrors,
      },
    },
    patch: {
      summary: "Change a key's rate limit",
      security: bearer,
      parameters: [keyRef],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: { rate_limit_per_minute: { type: "integer", minimum: 1 } },
              required: ["rate_limit_per_minute"],
              additionalProperties: false,
            },
          },
        },
      },
      responses: { 200: keyData, 400: json(ref("ValidationError"), "Invalid."), ...adminErrors },
    },
  },
  "/api/v1/admin/keys/{ref}/trust": {
    post: {
      summary: "Trust a key: every event it last wrote gets a vector and enters AI search",
      security: bearer,
      parameters: [keyRef],
      responses: { 200: keyData, 409: error("The key is revoked."), ...adminErrors },
    },
  },
  "/api/v1/admin/keys/{ref}/untrust": {
    post: {
      summary: "Withdraw trust: the key's events leave AI search at once",
      security: bearer,
      parameters: [keyRef],
      responses: { 200: keyData, ...adminErrors },
    },
  },
};
