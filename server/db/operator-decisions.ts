/**
 * The audit log: every operator decision with who, what, when and the counts. One function
 * records a decision, so any new operator action (duplicate split or join, say) logs itself with
 * one call, inside the same transaction as the change when it has one.
 */
import type { Sql } from "postgres";

/** What an operator decided. */
export type OperatorAction =
  | "trust"
  | "untrust"
  | "revoke"
  | "rate_change"
  | "delete_events"
  | "clean_up"
  | "split"
  | "join"
  | "block_domain"
  | "unblock_domain";

/** A decision to record. */
export interface OperatorDecision {
  /** The operator key's display prefix, ADMIN_API_KEY, or the operator's site address. */
  decidedBy: string;
  action: OperatorAction;
  contributorId?: string | null;
  keyId?: string | null;
  eventId?: string | null;
  /** Counts and values of the decision, such as `{ "events": 12 }`. */
  details?: Record<string, number | string | boolean | null>;
}

/** A recorded decision. */
export interface DecisionRecord {
  id: string;
  decided_at: Date;
  decided_by: string;
  action: OperatorAction;
  contributor_id: string | null;
  contributor: string | null;
  key_id: string | null;
  key_prefix: string | null;
  event_id: string | null;
  details: Record<string, unknown>;
}

/** Records one operator decision; call it with the transaction that made the change. */
export async function recordOperatorDecision(sql: Sql, decision: OperatorDecision): Promise<void> {
  await sql`
    INSERT INTO operator_decisions (decided_by, action, contributor_id, key_id, event_id, details)
    VALUES (${decision.decidedBy}, ${decision.action},
            coalesce(${decision.contributorId ?? null}::uuid,
                     (SELECT contributor_id FROM api_keys WHERE id = ${
    decision.keyId ?? null
  }::uuid)),
            ${decision.keyId ?? null}::uuid, ${decision.eventId ?? null}::uuid,
            ${sql.json(decision.details ?? {})})`;
}

/** Decisions newest first, `limit` of them, older than the decision `before` when given. */
export async function listOperatorDecisions(
  sql: Sql,
  page: { limit: number; before?: string },
): Promise<DecisionRecord[]> {
  return await sql<DecisionRecord[]>`
    SELECT d.id::text AS id, d.decided_at, d.decided_by, d.action, d.contributor_id,
           c.name AS contributor, d.key_id, k.prefix AS key_prefix, d.event_id, d.details
    FROM operator_decisions d
    LEFT JOIN contributors c ON c.id = d.contributor_id
    LEFT JOIN api_keys k ON k.id = d.key_id
    WHERE ${page.before ?? null}::bigint IS NULL OR d.id < ${page.before ?? null}::bigint
    ORDER BY d.id DESC
    LIMIT ${page.limit}`;
}
