/** Failed sign-ins per bucket (an account address, a client address), for throttling. */
import type { Sql } from "postgres";

/** Per bucket: failures within the window, and when the oldest of them leaves it. */
export interface FailureCount {
  bucket: string;
  failures: number;
  /** Seconds until the oldest counted failure leaves the window. */
  clearsInSeconds: number;
}

/** Failures of each bucket within the last `windowSeconds`. */
export async function countRecentFailures(
  sql: Sql,
  buckets: string[],
  windowSeconds: number,
): Promise<FailureCount[]> {
  return await sql<FailureCount[]>`
    SELECT bucket, count(*)::int AS failures,
      ceil(extract(epoch FROM min(failed_at) + make_interval(secs => ${windowSeconds}) - now()))::int
        AS "clearsInSeconds"
    FROM sign_in_failures
    WHERE bucket = ANY(${buckets}::text[])
      AND failed_at > now() - make_interval(secs => ${windowSeconds})
    GROUP BY bucket`;
}

/** Records one failure in each bucket and forgets failures too old to count. */
export async function recordFailure(
  sql: Sql,
  buckets: string[],
  windowSeconds: number,
): Promise<void> {
  await sql`
    WITH forgotten AS (
      DELETE FROM sign_in_failures
      WHERE bucket = ANY(${buckets}::text[])
        AND failed_at <= now() - make_interval(secs => ${windowSeconds})
    )
    INSERT INTO sign_in_failures (bucket) SELECT unnest(${buckets}::text[])`;
}

/** Forgets a bucket's failures (an account's, after it signed in). */
export async function clearFailures(sql: Sql, bucket: string): Promise<void> {
  await sql`DELETE FROM sign_in_failures WHERE bucket = ${bucket}`;
}
