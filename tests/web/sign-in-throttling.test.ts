/**
 * Sign-in is throttled per account address and per client address, and the refusal reads the same
 * whether or not the address has an account. Over HTTPS the cookies carry the __Host- prefix.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer } from "../../dev-support/test-server.ts";
import { FormClient, signUp } from "./support/form-client.ts";

const PASSWORD = "correct horse battery staple";

function notice(text: string): string {
  return /<div class="notice error"[\s\S]*?<\/div>/.exec(text)?.[0] ?? "";
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] sign-in is throttled per account and per client, alike for unknown addresses`, async () => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    try {
      await signUp(new FormClient(server.url), "grace@example.org", PASSWORD);
      const visitor = new FormClient(server.url);
      await visitor.get("/sign-in");
      // Two real failures for each address, then three more recorded straight away (each real
      // one costs a second of scrypt): five in the window.
      for (const email of ["grace@example.org", "ghost@example.org"]) {
        for (let i = 0; i < 2; i++) {
          const answer = await visitor.post("/sign-in", { email, password: `wrong ${i} password` });
          assert.equal(answer.status, 400);
        }
        await sql`INSERT INTO sign_in_failures (bucket)
          SELECT ${`account:${email}`} FROM generate_series(1, 3)`;
      }
      const known = await visitor.post("/sign-in", {
        email: "grace@example.org",
        password: PASSWORD,
      });
      const unknown = await visitor.post("/sign-in", {
        email: "ghost@example.org",
        password: PASSWORD,
      });
      assert.equal(known.status, 429, "refused even with the right password");
      assert.equal(unknown.status, 429);
      assert.equal(notice(known.text), notice(unknown.text));
      assert.match(notice(known.text), /Too many failed sign-ins. Try again in 15 minutes/);
      assert.ok(Number(known.headers.get("retry-after")) > 800);

      // Another address from the same client still works, until the client's own limit.
      await signUp(new FormClient(server.url), "hopper@example.org", PASSWORD);
      const ok = await visitor.post("/sign-in", {
        email: "hopper@example.org",
        password: PASSWORD,
      });
      assert.equal(ok.status, 303);
      const next = new FormClient(server.url);
      await next.get("/sign-in");
      await sql`INSERT INTO sign_in_failures (bucket)
        SELECT 'client:127.0.0.1' FROM generate_series(1, 20)`;
      const blocked = await next.post("/sign-in", {
        email: "hopper@example.org",
        password: PASSWORD,
      });
      assert.equal(blocked.status, 429);

      // A window later, the address may try again.
      await sql`UPDATE sign_in_failures SET failed_at = now() - interval '16 minutes'`;
      const again = await next.post("/sign-in", { email: "grace@example.org", password: PASSWORD });
      assert.equal(again.status, 303);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] over HTTPS the cookies are __Host- prefixed and Secure`, async () => {
    const server = await startTestServer(kind, { trustProxy: true });
    try {
      const https = server.url.replace("http:", "https:");
      const client = new FormClient(server.url, { "X-Forwarded-Proto": "https" });
      const form = await client.get("/sign-up");
      const csrfCookie = form.headers.getSetCookie().find((c) => c.startsWith("__Host-csrf="));
      assert.ok(csrfCookie, "the anonymous CSRF cookie is __Host- prefixed");
      assert.match(csrfCookie, /; Secure/);
      const answer = await client.post(
        "/sign-up",
        { email: "lin@example.org", password: PASSWORD },
        {
          origin: https,
        },
      );
      assert.equal(answer.status, 303);
      const session = answer.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
      assert.match(session, /; Secure/);
      assert.match(session, /; HttpOnly/);
      assert.match(session, /; SameSite=Lax/);
      assert.ok(!/Domain=/i.test(session));
      assert.equal((await client.get("/dashboard")).status, 200);
      // The plain-HTTP origin is another origin now.
      assert.equal((await client.post("/sign-out", {}, { origin: server.url })).status, 403);
    } finally {
      await server.close();
    }
  });
}
