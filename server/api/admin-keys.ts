/** Operator endpoints for API keys: create, list, revoke. */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { CreateKeyRequest } from "../../shared/api-schemas.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import {
  type ApiKeyRecord,
  findApiKeyByRef,
  KEY_STATUSES,
  type KeyStatus,
  listApiKeys,
} from "../db/api-keys.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { revokeKey } from "../auth/key-decisions.ts";
import { AppError, validationError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { isDisplayPrefix } from "../../shared/api-key-format.ts";
import { readJsonBody } from "./read-json-body.ts";
import { parseQuery } from "./event-query.ts";

/** A key record as the API shows it (no internal ids of other tables). */
export function keyView(record: ApiKeyRecord) {
  const { contributor_id: _contributorId, ...view } = record;
  return view;
}

/** The key named by id or display prefix in the path, or 404. */
export async function keyFromPath(c: Context<AppEnv>): Promise<ApiKeyRecord> {
  const ref = c.req.param("ref")!;
  // Only an id or a prefix can name a key; anything else (say, with NUL) must not reach SQL.
  const record = (isUuid(ref) || isDisplayPrefix(ref))
    ? await findApiKeyByRef(c.get("deps").db.sql, ref)
    : null;
  if (!record) {
    throw new AppError("not_found", `No API key has the id or prefix ${JSON.stringify(ref)}.`);
  }
  return record;
}

/** POST /api/v1/admin/keys */
export async function createKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const parsed = CreateKeyRequest.safeParse(await readJsonBody(c));
  if (!parsed.success) throw validationError(toValidationDetails(parsed.error.issues));
  const { deps, principal } = { deps: c.get("deps"), principal: c.get("principal") };
  const { key, record } = await issueApiKey(deps.db.sql, {
    contributor: parsed.data.contributor,
    name: parsed.data.name,
    scopes: [...new Set(parsed.data.scopes)],
    rateLimitPerMinute: parsed.data.rate_limit_per_minute ?? deps.config.defaultRateLimitPerMinute,
    createdBy: principal.prefix,
  });
  return c.json({ data: { ...keyView(record), key } }, 201);
}

const ListKeysQuery = z.strictObject({
  status: z.enum(KEY_STATUSES as [KeyStatus, ...KeyStatus[]], {
    error: () => `status must be one of ${KEY_STATUSES.join(", ")}`,
  }).optional(),
});

/** GET /api/v1/admin/keys[?status=] */
export async function listKeysHandler(c: Context<AppEnv>): Promise<Response> {
  const { status } = parseQuery(ListKeysQuery, c.req.query());
  const keys = await listApiKeys(c.get("deps").db.sql, { status });
  return c.json({ data: keys.map(keyView) });
}

/** POST /api/v1/admin/keys/{ref}/revoke: the key fails with 401 from its next request on. */
export async function revokeKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const key = await keyFromPath(c);
  const revoked = await revokeKey(c.get("deps"), key);
  return c.json({ data: keyView(revoked) });
}
