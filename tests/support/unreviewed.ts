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
