/**
 * Operators block remote servers by domain: their inbox requests are refused (403) and nothing
 * is delivered to them. Each decision is in the audit log, in the same transaction.
 */
import type { Sql } from "postgres";
import { addBlock, removeBlock } from "../db/federation-blocks.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { AppError } from "../errors.ts";

/** Blocks `domain`; false when it was blocked already (nothing recorded then). */
export async function blockDomain(
  sql: Sql,
  block: { domain: string; decidedBy: string },
): Promise<boolean> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const added = await addBlock(tx, { domain: block.domain, blockedBy: block.decidedBy });
    if (added) {
      await recordOperatorDecision(tx, {
        decidedBy: block.decidedBy,
        action: "block_domain",
        details: { domain: block.domain },
      });
    }
    return added;
  }) as boolean;
}

/** Unblocks `domain`; 404 when it is not blocked. */
export async function unblockDomain(
  sql: Sql,
  block: { domain: string; decidedBy: string },
): Promise<void> {
  await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    if (!await removeBlock(tx, block.domain)) {
      throw new AppError("not_found", `Cannot unblock ${block.domain}: it is not blocked.`);
    }
    await recordOperatorDecision(tx, {
      decidedBy: block.decidedBy,
      action: "unblock_domain",
      details: { domain: block.domain },
    });
  });
}
