/** `events admin keys`, `create-key` and `set-limit`. */
import { z } from "zod";
import { ApiKeyView, KEY_STATUSES, NewApiKey } from "../../shared/key-schemas.ts";
import type { ApiSettings } from "../settings.ts";
import type { Terminal } from "../output/terminal.ts";
import { cell, renderPairs, renderTable } from "../output/tables.ts";
import { adminRequest, keyPath } from "./admin-request.ts";

/** The rows of one key, for `review`, `trust` and the like. */
export function keyPairs(key: ApiKeyView): [string, string | number][] {
  return [
    ["Prefix", key.prefix],
    ["Id", key.id],
    ["Contributor", key.contributor],
    ["Name", key.name],
    ["Status", key.status],
    ["Scopes", key.scopes.join(", ")],
    ["Rate limit", `${key.rate_limit_per_minute}/min`],
    ["Created", key.created_at],
    ["First batch", key.first_batch_at ?? "none yet"],
    ["Last used", key.last_used_at ?? "never"],
  ];
}

/** Lists keys, optionally of one status (the command line has checked it is one of KEY_STATUSES). */
export async function listKeys(
  api: ApiSettings,
  options: { status?: (typeof KEY_STATUSES)[number]; json: boolean },
  terminal: Terminal,
) {
  const query = options.status ? `?status=${options.status}` : "";
  const keys = await adminRequest(api, {
    method: "GET",
    path: `/api/v1/admin/keys${query}`,
    answer: z.array(ApiKeyView),
  });
  if (options.json) return terminal.out(JSON.stringify(keys, null, 2));
  if (keys.length === 0) {
    return terminal.out(options.status ? `No ${options.status} keys.` : "No keys.");
  }
  terminal.out(renderTable(
    ["prefix", "contributor", "name", "status", "scopes", "limit/min", "created", "last used"],
    keys.map((k) => [
      k.prefix,
      cell(k.contributor, 30),
      cell(k.name, 30),
      k.status,
      k.scopes.join(","),
      k.rate_limit_per_minute,
      cell(k.created_at, 20),
      cell(k.last_used_at ?? "never", 20),
    ]),
    terminal.colour,
  ));
}

/** Creates a key; its secret is printed this once, which is the only time it exists in clear. */
export async function createKey(
  api: ApiSettings,
  options: {
    contributor: string;
    name: string;
    scopes: string[];
    rateLimit?: number;
    json: boolean;
  },
  terminal: Terminal,
) {
  const body: Record<string, unknown> = {
    contributor: options.contributor,
    name: options.name,
    scopes: options.scopes,
  };
  if (options.rateLimit !== undefined) body.rate_limit_per_minute = options.rateLimit;
  const key = await adminRequest(api, {
    method: "POST",
    path: "/api/v1/admin/keys",
    body,
    answer: NewApiKey,
  });
  if (options.json) return terminal.out(JSON.stringify(key, null, 2));
  terminal.out(renderPairs([...keyPairs(key), ["Key", key.key]], terminal.colour));
  terminal.err("Give the key to the contributor now: it is not shown again.");
}

/** Changes a key's rate limit. */
export async function setRateLimit(
  api: ApiSettings,
  ref: string,
  perMinute: number,
  options: { json: boolean },
  terminal: Terminal,
) {
  const key = await adminRequest(api, {
    method: "PATCH",
    path: keyPath(ref),
    body: { rate_limit_per_minute: perMinute },
    answer: ApiKeyView,
  });
  if (options.json) return terminal.out(JSON.stringify(key, null, 2));
  terminal.out(renderPairs(keyPairs(key), terminal.colour));
}
