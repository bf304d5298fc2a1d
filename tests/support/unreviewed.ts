/** A contributor as a stranger makes one: signed up on the site, with keys made on the dashboard. */
import { FormClient, signUp } from "../web/support/form-client.ts";

const PASSWORD = "correct horse battery staple";

/** A dashboard key: the full key, its id, and the page that showed it. */
export interface DashboardKey {
  key: string;
  id: string;
}

/** Makes a key on the dashboard; returns it, or the page's problem when it was refused. */
export async function dashboardKey(
  client: FormClient,
  name: string,
): Promise<DashboardKey | { problem: string }> {
  await client.get("/dashboard");
  const page = await client.post("/dashboard/keys", {
    name,
    scopes: "events:write",
    lifetime: "never",
  });
  const key = /<code id="new-key" class="secret">(evk_[A-Za-z0-9]+)<\/code>/.exec(page.text)?.[1];
  if (!key) {
    const problem = /<li>([^<]*keys already[^<]*)<\/li>/.exec(page.text)?.[1] ?? page.text;
    return { problem };
  }
  const dashboard = await client.get("/dashboard");
  const ids = [...dashboard.text.matchAll(/\/dashboard\/keys\/([0-9a-f-]{36})\/revoke/g)]
    .map((m) => m[1]);
  return { key, id: ids[0] };
}

/** Signs `email` up on the server at `url` and makes `keys` keys on its dashboard. */
export async function signedUpContributor(
  url: string,
  options: { email: string; keys: number },
): Promise<{ client: FormClient; keys: DashboardKey[] }> {
  const client = new FormClient(url);
  await signUp(client, options.email, PASSWORD);
  const keys: DashboardKey[] = [];
  for (let i = 0; i < options.keys; i++) {
    const made = await dashboardKey(client, `key ${i + 1}`);
    if ("problem" in made) throw new Error(`Cannot make key ${i + 1}: ${made.problem}`);
    keys.push(made);
  }
  return { client, keys };
}

/** The password every contributor made here signs in with. */
export const CONTRIBUTOR_PASSWORD = PASSWORD;

/** An operator signed in on the site: an OPERATOR_EMAILS address that proved the operator key. */
export async function signedInOperator(
  server: { url: string; adminKey: string },
  email: string,
): Promise<FormClient> {
  const op = new FormClient(server.url);
  await signUp(op, email, PASSWORD);
  await op.get("/dashboard");
  const confirmed = await op.post("/dashboard/operator", { operator_key: server.adminKey });
  if (confirmed.status !== 303) {
    throw new Error(`Cannot confirm the operator ${email}: is it in operatorEmails?`);
  }
  return op;
}
