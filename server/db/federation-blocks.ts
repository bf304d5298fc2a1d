/** Remote domains operators block: refused at the inbox and never delivered to. */
import type { Fragment, Sql } from "postgres";

/**
 * On a host (`host` or `host:port`, lower case): a block covers it when it names the host with
 * its port, the host, or a domain the host is under (blocking example.org blocks a.example.org).
 */
export function hostIsBlocked(sql: Sql, host: Fragment): Fragment {
  return sql`EXISTS (SELECT 1 FROM federation_blocks b
    WHERE b.domain = ${host}
       OR b.domain = regexp_replace(${host}, ':[0-9]+$', '')
       OR regexp_replace(${host}, ':[0-9]+$', '') LIKE '%.' || b.domain)`;
}

/** A blocked domain. */
export interface BlockRecord {
  domain: string;
  blocked_by: string;
  created_at: Date;
}

/** Blocks `domain`; false when it was blocked already. */
export async function addBlock(
  sql: Sql,
  block: { domain: string; blockedBy: string },
): Promise<boolean> {
  const rows = await sql`
    INSERT INTO federation_blocks (domain, blocked_by) VALUES (${block.domain}, ${block.blockedBy})
    ON CONFLICT (domain) DO NOTHING RETURNING 1`;
  return rows.length > 0;
}

/** Unblocks `domain`; false when it was not blocked. */
export async function removeBlock(sql: Sql, domain: string): Promise<boolean> {
  const rows = await sql`DELETE FROM federation_blocks WHERE domain = ${domain} RETURNING 1`;
  return rows.length > 0;
}

/** Every blocked domain, alphabetically (operators keep such lists short). */
export async function listBlocks(sql: Sql): Promise<BlockRecord[]> {
  return await sql<BlockRecord[]>`
    SELECT domain, blocked_by, created_at FROM federation_blocks ORDER BY domain LIMIT 10000`;
}

/** Whether any of `hosts` (`host` or `host:port`, lower case) is blocked. */
export async function anyBlocked(sql: Sql, hosts: string[]): Promise<boolean> {
  if (hosts.length === 0) return false;
  const rows = await sql`
    SELECT 1 FROM unnest(${hosts}::text[]) AS h (host)
    WHERE ${hostIsBlocked(sql, sql`h.host`)} LIMIT 1`;
  return rows.length > 0;
}
