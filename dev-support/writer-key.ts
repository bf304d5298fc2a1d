/** A key made straight in the database, for seeding data without the HTTP API. */
import type { Sql } from "postgres";
import { insertApiKey } from "../server/db/api-keys.ts";
import type { Writer } from "../server/db/events.ts";

/** Creates an `events:write` key of `contributor` (made on first use) and returns it as a writer. */
export async function insertWriterKey(sql: Sql, contributor: string): Promise<Writer> {
  const key = await insertApiKey(sql, {
    contributor,
    name: contributor,
    scopes: ["events:write"],
    rateLimitPerMinute: 60,
    // Nobody presents this key: a random digest and prefix only keep the row unique.
    digest: crypto.getRandomValues(new Uint8Array(32)),
    prefix: `evk_${crypto.randomUUID().slice(0, 8)}`,
    createdBy: "seed",
  });
  return { contributorId: key.contributor_id, keyId: key.id };
}
