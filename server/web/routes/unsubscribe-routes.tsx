/**
 * /alerts/unsubscribe/{token}: the link in every alert mail. GET shows a button (mail scanners
 * follow links, and a link alone must not unsubscribe); POST turns the search's mail off, also
 * as RFC 8058's one-click POST a mail provider sends without cookies or a form token.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { unsubscribeByToken } from "../../db/saved-searches.ts";
import { renderDocument } from "../components/layout.tsx";
import { Layout } from "../components/layout.tsx";
import { MessagePage } from "../pages/message-page.tsx";
import { pageContext } from "../site-context.ts";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** GET: the confirmation button. */
export function unsubscribeFormRoute(c: Context<AppEnv>): Response {
  const token = c.req.param("token") ?? "";
  const page = pageContext(c);
  return c.html(renderDocument(
    <Layout page={page} title="Stop alert mails">
      <h1>Stop alert mails</h1>
      <p>Stop the mails of this saved search? Its webhook and feeds stay as they are.</p>
      <form method="post" action={`/alerts/unsubscribe/${TOKEN.test(token) ? token : ""}`}>
        <button type="submit">Stop these mails</button>
      </form>
    </Layout>,
  ));
}

/** POST: mail off for the search, one click. */
export async function unsubscribeRoute(c: Context<AppEnv>): Promise<Response> {
  const token = c.req.param("token") ?? "";
  const name = TOKEN.test(token) ? await unsubscribeByToken(c.get("deps").db.sql, token) : null;
  const page = pageContext(c);
  if (name === null) {
    return c.html(
      renderDocument(
        <MessagePage
          page={page}
          title="Link not valid"
          message="This unsubscribe link is not one we sent, or its search was deleted."
        />,
      ),
      404,
    );
  }
  return c.html(renderDocument(
    <MessagePage
      page={page}
      title="Mails stopped"
      message={`You get no more mails for “${name}”.`}
    />,
  ));
}
