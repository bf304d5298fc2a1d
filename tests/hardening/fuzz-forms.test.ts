/**
 * Property-based test of the site's forms (sign up, sign in, sign out, operator confirmation):
 * generated fields, with a valid form token or without, never cause a 5xx.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer } from "../../dev-support/test-server.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

/** The visitor's cookies and form token, as a browser gets them from the form page. */
async function formSession(url: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${url}/sign-up`);
  const html = await res.text();
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, "the sign-up page has a form token");
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  return { cookie, token };
}

const text = fc.oneof(
  fc.constantFrom(
    "",
    "ada@example.org",
    "ADA@EXAMPLE.ORG ",
    "not-an-email",
    "a@b",
    "correct horse battery staple",
    "short",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "\u0000",
    "x".repeat(1025),
    `${"a".repeat(250)}@example.org`,
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
);

const fields = fc.record({
  email: text,
  password: text,
  extra: fc.option(fc.tuple(fc.string({ maxLength: 10 }), text), { nil: undefined }),
  token: fc.constantFrom("valid", "missing", "wrong"),
  path: fc.constantFrom("/sign-up", "/sign-in", "/sign-out", "/dashboard/operator"),
}, { requiredKeys: ["email", "password", "token", "path"] });

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: generated form fields never cause a 5xx`, async () => {
    const server = await startTestServer(kind, { publicRateLimitPerMinute: 10_000_000 });
    try {
      const session = await formSession(server.url);
      await fc.assert(
        fc.asyncProperty(fields, async (f) => {
          const form = new URLSearchParams({ email: f.email, password: f.password });
          if (f.token === "valid") form.set("csrf", session.token);
          if (f.token === "wrong") form.set("csrf", "A".repeat(43));
          if (f.extra) form.append(f.extra[0], f.extra[1]);
          const res = await fetch(`${server.url}${f.path}`, {
            method: "POST",
            redirect: "manual",
            headers: {
              Origin: server.url,
              Cookie: session.cookie,
              "Content-Type": "application/x-www-form-urlencoded",
            },
            body: form,
          });
          const body = await res.text();
          const context = JSON.stringify(f).slice(0, 500);
          assert.ok(res.status < 500, `${context}: ${res.status} ${body.slice(0, 300)}`);
          if (f.token !== "valid" && f.path !== "/sign-out") {
            // Without a session the operator form only sends the visitor to sign in.
            const toSignIn = res.status === 303 && res.headers.get("Location") === "/sign-in";
            assert.ok(
              res.status === 403 || (f.path === "/dashboard/operator" && toSignIn),
              context,
            );
          }
        }),
        { numRuns: fuzzRuns(100, 0.25), seed: fuzzSeed() },
      );
    } finally {
      await server.close();
    }
  });
}
