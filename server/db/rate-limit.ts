/**
 * Rate limits kept in PostgreSQL so that every server process on one database shares them.
 * GCRA: each request moves a bucket's theoretical arrival time (TAT) on by window/limit; a
 * request is refused when that would put the TAT more than one window ahead of now.
 */
import type { Sql } from "postgres";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Requests that could still be made now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds to wait before the next request can succeed (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `bucket` in one atomic statement and says whether it may pass.
 *
 * Committed without waiting for the disk (synchronous_commit off, for this statement only):
 * every request passes here, and waiting for the write-ahead log to be flushed cost 3 to 12 ms at
 * the median (28 ms at p95) on the shared benchmark machine, most of what HTTP added to a search;
 * without it 0.1 ms.
 * A crash can lose the last fraction of a second of counts, never an event.
 */
export async function consumeRateLimit(
  sql: Sql,
  bucket: string,
  limit: number,
  windowSeconds = 60,
): Promise<RateLimitDecision> {
  const interval = windowSeconds / limit;
  // set_config(..., true) holds for this statement's own transaction, so its commit does not wait.
  const [row] = await sql<{ allowed: boolean; ahead: number }[]>`
    INSERT INTO rate_limit_buckets AS b (bucket, tat, allowed)
    SELECT ${bucket}, now() + make_interval(secs => ${interval}), true
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_waiting_for_disk
    ON CONFLICT (bucket) DO UPDATE SET
      allowed = greatest(b.tat, now()) + make_interval(secs => ${interval})
                <= now() + make_interval(secs => ${windowSeconds}),
      tat = CASE
        WHEN greatest(b.tat, now()) + make_interval(secs => ${interval})
             <= now() + make_interval(secs => ${windowSeconds})
        THEN greatest(b.tat, now()) + make_interval(secs => ${interval})
        ELSE b.tat
      END
    RETURNING allowed,
      extract(epoch FROM greatest(tat - now(), interval '0'))::float8 AS ahead`;
  const ahead = row.ahead;
  return {
    allowed: row.allowed,
    limit,
    windowSeconds,
    remaining: Math.max(0, Math.floor((windowSeconds - ahead) / interval)),
    resetSeconds: Math.ceil(ahead),
    retryAfterSeconds: row.allowed ? 0 : Math.max(1, Math.ceil(ahead + interval - windowSeconds)),
  };
}

/** Deletes buckets that are full again, which behave exactly like absent ones. */
export async function pruneRateLimitBuckets(sql: Sql): Promise<number> {
  const result = await sql`DELETE FROM rate_limit_buckets WHERE tat < now()`;
  return result.count;
}
