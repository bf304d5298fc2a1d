/** Sign up, sign in, sign out. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { clientAddress } from "../../client-address.ts";
import { formProblems, SignInForm, SignUpForm } from "../../accounts/account-forms.ts";
import { checkedForm, field, formToken } from "../../accounts/csrf.ts";
import { signIn } from "../../accounts/sign-in.ts";
import { signUp } from "../../accounts/sign-up.ts";
import { sendConfirmationLink } from "../../accounts/email-confirmation.ts";
import { siteOrigin } from "../../request-origin.ts";
import { endSession, startSession } from "../../accounts/sessions.ts";
import { renderDocument } from "../components/layout.tsx";
import { AccountPage } from "../pages/account-page.tsx";
import { pageContext } from "../site-context.ts";

type Kind = "sign-up" | "sign-in";

function accountPage(
  c: Context<AppEnv>,
  kind: Kind,
  form: { email?: string; problems?: string[]; status?: 200 | 400 | 403 | 429 } = {},
): Response {
  const page = pageContext(c);
  const body = renderDocument(
    <AccountPage
      page={page}
      kind={kind}
      csrfToken={formToken(c, page.viewer)}
      email={form.email}
      problems={form.problems}
    />,
  );
  c.header("Cache-Control", "no-store");
  return c.html(body, form.status ?? 200);
}

/** GET /sign-up and /sign-in: the form, or the dashboard for someone signed in already. */
export function accountFormRoute(kind: Kind) {
  return (c: Context<AppEnv>): Response => {
    if (pageContext(c).viewer) return c.redirect("/dashboard", 303);
    return accountPage(c, kind);
  };
}

/** POST /sign-up: creates the account and signs it in. */
export async function signUpRoute(c: Context<AppEnv>): Promise<Response> {
  const fields = await checkedForm(c, pageContext(c).viewer);
  const parsed = SignUpForm.safeParse(fields);
  if (!parsed.success) {
    return accountPage(c, "sign-up", {
      email: field(fields, "email"),
      problems: formProblems(parsed.error),
      status: 400,
    });
  }
  const deps = c.get("deps");
  const result = await signUp(deps.db.sql, {
    ...parsed.data,
    clientAddress: clientAddress(c, deps.config.trustProxy),
  });
  if (!result.ok) {
    return accountPage(c, "sign-up", {
      email: parsed.data.email,
      problems: [result.problem],
      status: 400,
    });
  }
  await startSession(c, deps.db.sql, result.account.id);
  // The account works without it; a mail that cannot go now can be sent again from /alerts.
  await sendConfirmationLink(deps, {
    accountId: result.account.id,
    email: result.account.email,
    origin: siteOrigin(c),
  }).catch((err) => console.error("Cannot mail an address confirmation:", err));
  return c.redirect("/dashboard?welcome=1", 303);
}

/** POST /sign-in: one message for every wrong address or password. */
export async function signInRoute(c: Context<AppEnv>): Promise<Response> {
  const fields = await checkedForm(c, pageContext(c).viewer);
  const parsed = SignInForm.safeParse(fields);
  if (!parsed.success) {
    return accountPage(c, "sign-in", {
      email: field(fields, "email"),
      problems: formProblems(parsed.error),
      status: 400,
    });
  }
  const deps = c.get("deps");
  const result = await signIn(deps.db.sql, {
    ...parsed.data,
    clientAddress: clientAddress(c, deps.config.trustProxy),
  });
  if (!result.ok) {
    const throttled = result.reason === "throttled";
    if (throttled) c.header("Retry-After", String(result.retryAfterSeconds));
    return accountPage(c, "sign-in", {
      email: parsed.data.email,
      problems: [
        throttled
          ? `Too many failed sign-ins. Try again in ${
            Math.ceil(result.retryAfterSeconds / 60)
          } minutes.`
          : result.reason === "blocked"
          ? "An operator has closed this account: it can no longer sign in."
          : "Email address or password is wrong.",
      ],
      status: throttled ? 429 : result.reason === "blocked" ? 403 : 400,
    });
  }
  await startSession(c, deps.db.sql, result.account.id);
  return c.redirect("/dashboard", 303);
}

/** POST /sign-out: ends the session on the server, then forgets the cookie. */
export async function signOutRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = pageContext(c).viewer;
  // Without a live session there is nothing to end but a stale cookie.
  if (viewer) await checkedForm(c, viewer);
  await endSession(c, c.get("deps").db.sql);
  return c.redirect("/", 303);
}
