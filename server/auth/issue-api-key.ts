/** Makes a new API key: only its digest and display prefix are stored. */
import type { Sql } from "postgres";
import { displayPrefix, generateApiKey } from "../../shared/api-key-format.ts";
import { type ApiKeyRecord, insertApiKey } from "../db/api-keys.ts";
import { apiKeyDigest } from "./api-key-digest.ts";

export interface IssueApiKeyOptions {
  contributor: string;
  name: string;
  scopes: string[];
  rateLimitPerMinute: number;
  createdBy: string;
  /** When the key stops working; absent or null: never. */
  expiresAt?: Date | null;
  /** Made by its contributor on the dashboard (absent: by an operator). */
  selfService?: boolean;
}

const UNIQUE_VIOLATION = "23505";

/** Creates a key and returns it with its record; the full key is never retrievable again. */
export async function issueApiKey(
  sql: Sql,
  options: IssueApiKeyOptions,
): Promise<{ key: string; record: ApiKeyRecord }> {
  // A clash of 8 random display characters is rare but possible: try a fresh key.
  for (let attempt = 1;; attempt++) {
    const key = generateApiKey();
    try {
      const record = await insertApiKey(sql, {
        ...options,
        digest: await apiKeyDigest(key),
        prefix: displayPrefix(key),
      });
      return { key, record };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== UNIQUE_VIOLATION || attempt >= 3) throw err;
    }
  }
}
