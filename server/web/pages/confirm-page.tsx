/** "Are you sure?": a page with one form, so that confirming works without JavaScript. */
import type { FC } from "hono/jsx";
import { CsrfField, Layout } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";

export interface ConfirmPageProps {
  page: PageContext;
  csrfToken: string;
  title: string;
  message: string;
  action: string;
  button: string;
  cancelHref: string;
}

export const ConfirmPage: FC<ConfirmPageProps> = (props) => (
  <Layout page={props.page} title={props.title}>
    <div class="form-card stack">
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      <form method="post" action={props.action} class="actions">
        <CsrfField token={props.csrfToken} />
        <button type="submit" class="danger">{props.button}</button>
        <a class="button secondary" href={props.cancelHref}>Cancel</a>
      </form>
    </div>
  </Layout>
);
