/** A key's trust state in words, with what it means for the key's events. */
import type { FC } from "hono/jsx";
import type { ApiKeyRecord } from "../../db/api-keys.ts";

const MEANING = {
  untrusted: ["New", "Events are listed and text-searchable at once; not yet in AI search."],
  pending: ["Pending review", "An operator will review its first batch for AI search."],
  trusted: ["Trusted", "Its events are in AI (semantic) search."],
  revoked: ["Revoked", "Refused with 401; its events stay listed."],
} as const;

/** Whether the key's lifetime has ended. */
export function isExpired(key: Pick<ApiKeyRecord, "expires_at">, now: Date): boolean {
  return key.expires_at !== null && key.expires_at.getTime() <= now.getTime();
}

export const KeyStatus: FC<{ keyRecord: ApiKeyRecord; now: Date }> = ({ keyRecord, now }) => {
  const [label, meaning] = MEANING[keyRecord.status];
  const expired = keyRecord.status !== "revoked" && isExpired(keyRecord, now);
  return (
    <>
      <strong>{expired ? "Expired" : label}</strong>
      <span class="hint status-hint">
        {expired ? "Refused with 401 since it expired; make a new key." : meaning}
      </span>
    </>
  );
};
