/** "Are you sure?": a page with one form, so that confirming works without JavaScript. */
import type { FC } from "hono/jsx";
import type { Context as HonoContext } from "hono";
import { CsrfField, Layout, renderDocument } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import { pageContext } from "../site-context.ts";

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

/** Answers with the confirmation page for `viewer`: never cached, their form token in it. */
export function confirmPage(
  c: HonoContext,
  viewer: Viewer,
  props: Omit<ConfirmPageProps, "page" | "csrfToken">,
): Response {
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <ConfirmPage page={pageContext(c)} csrfToken={viewer.csrfToken} {...props} />,
  ));
}
