/**
 * A visitor without a browser: keeps cookies, reads the CSRF token out of forms and posts them
 * from the site's own origin, as a browser would (or from elsewhere, as an attacker would).
 */

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class FormClient {
  readonly cookies = new Map<string, string>();
  lastPage = "";

  constructor(readonly base: string, readonly extraHeaders: Record<string, string> = {}) {}

  #cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  #keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((p) => p.trim());
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const expired = attributes.some((a) => /^max-age=0$/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async #send(path: string, init: RequestInit): Promise<Answer> {
    const res = await fetch(`${this.base}${path}`, {
      redirect: "manual",
      ...init,
      headers: { ...this.extraHeaders, Cookie: this.#cookieHeader(), ...init.headers },
    });
    this.#keep(res);
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      location: res.headers.get("location"),
    };
  }

  /** GETs a page and remembers it (for its form token). */
  async get(path: string): Promise<Answer> {
    const answer = await this.#send(path, {});
    this.lastPage = answer.text;
    return answer;
  }

  /** The CSRF token in the last page's forms. */
  token(): string {
    const match = /name="csrf" value="([^"]+)"/.exec(this.lastPage);
    if (!match) throw new Error("The last page has no form with a CSRF token");
    return match[1];
  }

  /** POSTs a form; by default with the last page's token and the site's own Origin. */
  async post(
    path: string,
    fields: Record<string, string>,
    options: { origin?: string | null; token?: string | null; extraBody?: string[][] } = {},
  ): Promise<Answer> {
    const token = options.token === undefined ? this.token() : options.token;
    const body = new URLSearchParams(token === null ? fields : { csrf: token, ...fields });
    // Fields sent more than once, as several checked boxes of one name are.
    for (const [name, value] of options.extraBody ?? []) body.append(name, value);
    const origin = options.origin === undefined ? this.base : options.origin;
    const answer = await this.#send(path, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        ...(origin === null ? {} : { Origin: origin }),
      },
    });
    if (answer.status === 200 || answer.status >= 400) this.lastPage = answer.text;
    return answer;
  }
}

/** Signs a new account up and follows the redirect to the dashboard. */
export async function signUp(client: FormClient, email: string, password: string): Promise<Answer> {
  await client.get("/sign-up");
  const answer = await client.post("/sign-up", { email, password });
  if (answer.status !== 303) throw new Error(`Cannot sign up: ${answer.status} ${answer.text}`);
  return await client.get(answer.location!);
}
