/** `/sign-up` and `/sign-in`: an address and a password. */
import type { FC } from "hono/jsx";
import { CsrfField, Layout } from "../components/layout.tsx";
import { FormProblems } from "../components/form-problems.tsx";
import type { PageContext } from "../page-context.ts";
import { MIN_PASSWORD_LENGTH } from "../../accounts/account-forms.ts";

export interface AccountPageProps {
  page: PageContext;
  kind: "sign-up" | "sign-in";
  csrfToken: string;
  email?: string;
  problems?: string[];
}

const TEXT = {
  "sign-up": {
    title: "Create an account",
    intro:
      "With an account you make API keys for pushing events, see how your keys are doing, and manage the events you pushed.",
    button: "Create account",
    other: { question: "Have an account already?", href: "/sign-in", link: "Sign in" },
  },
  "sign-in": {
    title: "Sign in",
    intro: "Sign in to make and manage your API keys and your events.",
    button: "Sign in",
    other: { question: "No account yet?", href: "/sign-up", link: "Create one" },
  },
} as const;

export const AccountPage: FC<AccountPageProps> = ({ page, kind, csrfToken, email, problems }) => {
  const text = TEXT[kind];
  const newPassword = kind === "sign-up";
  return (
    <Layout page={page} title={text.title}>
      <div class="form-card">
        <h1>{text.title}</h1>
        <p>{text.intro}</p>
        <FormProblems problems={problems ?? []} />
        <form method="post" action={`/${kind}`}>
          <CsrfField token={csrfToken} />
          <div class="field">
            <label for="email">Email address</label>
            <input
              type="email"
              id="email"
              name="email"
              value={email ?? ""}
              autocomplete="email"
              required
            />
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input
              type="password"
              id="password"
              name="password"
              autocomplete={newPassword ? "new-password" : "current-password"}
              minlength={newPassword ? MIN_PASSWORD_LENGTH : undefined}
              aria-describedby={newPassword ? "password-hint" : undefined}
              required
            />
            {newPassword
              ? (
                <span class="hint" id="password-hint">
                  At least {MIN_PASSWORD_LENGTH} characters. A few unrelated words make a good one.
                </span>
              )
              : null}
          </div>
          <button type="submit">{text.button}</button>
        </form>
        <p class="after-form">
          {text.other.question} <a href={text.other.href}>{text.other.link}</a>
        </p>
      </div>
    </Layout>
  );
};
