/** `/dashboard`: a contributor's account, keys and events. */
import type { FC } from "hono/jsx";
import { CsrfField, Layout } from "../components/layout.tsx";
import type { PageContext, Viewer } from "../page-context.ts";

export interface DashboardPageProps {
  page: PageContext;
  viewer: Viewer;
  notices: string[];
}

const OperatorConfirmation: FC<{ viewer: Viewer }> = ({ viewer }) => (
  <section aria-labelledby="operator-heading" class="aside stack">
    <h2 id="operator-heading">Operator access</h2>
    <p>
      Your address is an operator address (OPERATOR_EMAILS). To open the review queue, prove that
      you hold the operator key: the server's ADMIN_API_KEY.
    </p>
    <form method="post" action="/dashboard/operator">
      <CsrfField token={viewer.csrfToken} />
      <div class="field">
        <label for="operator-key">Operator key</label>
        <input type="password" id="operator-key" name="operator_key" autocomplete="off" required />
      </div>
      <button type="submit">Confirm operator access</button>
    </form>
  </section>
);

export const DashboardPage: FC<DashboardPageProps> = ({ page, viewer, notices }) => (
  <Layout page={page} title="Dashboard">
    <h1>Dashboard</h1>
    <p>
      Signed in as <strong>{viewer.email}</strong>.
      {viewer.isOperator
        ? (
          <>
            {" "}You are an operator: see the <a href="/review">review queue</a>.
          </>
        )
        : null}
    </p>
    {notices.map((notice) => <p key={notice} class="notice ok" role="status">{notice}</p>)}
    {viewer.operatorAddress && !viewer.isOperator ? <OperatorConfirmation viewer={viewer} /> : null}
  </Layout>
);
