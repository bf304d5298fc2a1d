/** The mailed link that confirms an address, and the dashboard's button that sends it again. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { confirmEmail, sendConfirmationLink } from "../../accounts/email-confirmation.ts";
import { siteOrigin } from "../../request-origin.ts";
import { renderDocument } from "../components/layout.tsx";
import { MessagePage } from "../pages/message-page.tsx";
import { pageContext } from "../site-context.ts";
import { requireViewer } from "./dashboard-routes.tsx";

/** GET /account/confirm-email?token=…: confirms the address the link was mailed to. */
export async function confirmEmailRoute(c: Context<AppEnv>): Promise<Response> {
  const email = await confirmEmail(c.get("deps"), c.req.query("token") ?? "");
  const page = pageContext(c);
  if (email === null) {
    return c.html(
      renderDocument(
        <MessagePage
          page={page}
          title="Link not valid"
          message="This confirmation link is used, expired or not one we sent. Send a new one from your dashboard."
        />,
      ),
      400,
    );
  }
  return c.html(renderDocument(
    <MessagePage
      page={page}
      title="Address confirmed"
      message={`${email} is confirmed: alert mails can reach it now.`}
    />,
  ));
}

/** POST /dashboard/confirm-email: mails a new confirmation link. */
export async function resendConfirmationRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const sent = await sendConfirmationLink(c.get("deps"), {
    accountId: viewer.accountId,
    email: viewer.email,
    origin: siteOrigin(c),
  });
  return c.redirect(`/alerts?confirmation=${sent ? "sent" : "unavailable"}`, 303);
}
