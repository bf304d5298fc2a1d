/** `/review/audit`: the operators' decisions, newest first. */
import type { FC } from "hono/jsx";
import type { DecisionRecord } from "../../db/operator-decisions.ts";
import { Layout } from "../components/layout.tsx";
import { DataTable } from "../components/data-table.tsx";
import type { PageContext } from "../page-context.ts";
import { formatInstant } from "../event-times.ts";

export interface AuditPageProps {
  page: PageContext;
  decisions: DecisionRecord[];
  /** The link to older decisions, or null on the last page. */
  olderHref: string | null;
}

/** The counts and values of a decision, as "events_deleted 12, keys_revoked 3". */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details).map(([name, value]) => `${name.replaceAll("_", " ")} ${value}`)
    .join(", ");
}

export const AuditPage: FC<AuditPageProps> = ({ page, decisions, olderHref }) => (
  <Layout page={page} title="Audit log">
    <h1>Audit log</h1>
    <p>
      Every operator decision, newest first: who made it, when, on which contributor or key, and
      what it changed. <a href="/review">Back to the review queue</a>.
    </p>
    {decisions.length === 0 ? <p class="empty">No operator decision yet.</p> : (
      <DataTable
        label="Operator decisions"
        columns={["When", "Who", "What", "Contributor", "Key", "Counts"]}
      >
        {decisions.map((d) => (
          <tr key={d.id}>
            <td>{formatInstant(d.decided_at)}</td>
            <td>{d.decided_by}</td>
            <td>{d.action.replaceAll("_", " ")}</td>
            <td>{d.contributor ?? ""}</td>
            <td>{d.key_prefix ? <code>{d.key_prefix}…</code> : ""}</td>
            <td>{detailsText(d.details)}</td>
          </tr>
        ))}
      </DataTable>
    )}
    {olderHref
      ? (
        <p>
          <a href={olderHref} rel="next">Older decisions</a>
        </p>
      )
      : null}
  </Layout>
);
