/**
 * Accounts without a browser: sign up, in and out; sessions that end; CSRF refusals; throttled
 * sign-in that never tells whether an address has an account.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer } from "../../dev-support/test-server.ts";
import { verifyPassword } from "../../server/accounts/password-hash.ts";
import { FormClient } from "./support/form-client.ts";

const PASSWORD = "correct horse battery staple";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] accounts: sign up, sign in, sign out, sessions and CSRF`, async (t) => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    try {
      const ada = new FormClient(server.url);

      await t.step("signing up opens the dashboard with a safe session cookie", async () => {
        await ada.get("/sign-up");
        const answer = await ada.post("/sign-up", {
          email: " Ada@Example.org ",
          password: PASSWORD,
        });
        assert.equal(answer.status, 303);
        const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("session="))!;
        assert.match(cookie, /HttpOnly/);
        assert.match(cookie, /SameSite=Lax/);
        assert.match(cookie, /Path=\//);
        const dashboard = await ada.get(answer.location!);
        assert.equal(dashboard.status, 200);
        assert.match(dashboard.text, /Signed in as <strong>ada@example.org<\/strong>/);
        const [row] = await sql`SELECT password_hash FROM accounts WHERE email = 'ada@example.org'`;
        assert.match(row.password_hash, /^scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/=]{24}\$/);
      });

      await t.step("a taken address or a short password is explained", async () => {
        const other = new FormClient(server.url);
        await other.get("/sign-up");
        const taken = await other.post("/sign-up", {
          email: "ada@example.org",
          password: PASSWORD,
        });
        assert.equal(taken.status, 400);
        assert.match(taken.text, /has an account already/);
        const short = await other.post("/sign-up", { email: "bob@example.org", password: "short" });
        assert.equal(short.status, 400);
        assert.match(short.text, /at least 12 characters/);
        assert.match(short.text, /value="bob@example.org"/, "keeps what was typed");
      });

      await t.step("signing out ends the session on the server", async () => {
        const stolen = ada.cookies.get("session")!;
        await ada.get("/dashboard");
        const out = await ada.post("/sign-out", {});
        assert.equal(out.status, 303);
        assert.equal(ada.cookies.get("session"), undefined);
        const replay = new FormClient(server.url);
        replay.cookies.set("session", stolen);
        const answer = await replay.get("/dashboard");
        assert.equal(answer.status, 303);
        assert.equal(answer.location, "/sign-in");
      });

      await t.step(
        "signing in again works; wrong address and wrong password read alike",
        async () => {
          await ada.get("/sign-in");
          const wrongPassword = await ada.post("/sign-in", {
            email: "ada@example.org",
            password: "nope nope nope",
          });
          const noAccount = await ada.post("/sign-in", {
            email: "nobody@example.org",
            password: "nope nope nope",
          });
          assert.equal(wrongPassword.status, 400);
          assert.equal(noAccount.status, 400);
          const message = (text: string) =>
            /<div class="notice error"[\s\S]*?<\/div>/.exec(text)![0];
          assert.equal(message(wrongPassword.text), message(noAccount.text));
          const ok = await ada.post("/sign-in", { email: "ADA@example.org", password: PASSWORD });
          assert.equal(ok.status, 303);
          assert.equal(ok.location, "/dashboard");
        },
      );

      await t.step("forms without our origin or without the token are refused", async () => {
        await ada.get("/dashboard");
        const foreign = await ada.post("/sign-out", {}, { origin: "https://evil.example" });
        assert.equal(foreign.status, 403);
        const noOrigin = await ada.post("/sign-out", {}, { origin: null });
        assert.equal(noOrigin.status, 403);
        const noToken = await ada.post("/sign-out", {}, { token: null });
        assert.equal(noToken.status, 403);
        const wrongToken = await ada.post("/sign-out", {}, { token: "x".repeat(43) });
        assert.equal(wrongToken.status, 403);
        assert.equal((await ada.get("/dashboard")).status, 200, "still signed in");
        // Signing in needs the anonymous visitor's token too (no login CSRF).
        const visitor = new FormClient(server.url);
        await visitor.get("/sign-in");
        const forged = await visitor.post("/sign-in", {
          email: "ada@example.org",
          password: PASSWORD,
        }, {
          token: "y".repeat(43),
        });
        assert.equal(forged.status, 403);
      });

      await t.step("sessions end after two idle hours or twelve hours in all", async () => {
        await sql`UPDATE sessions SET last_seen_at = now() - interval '2 hours 1 minute'`;
        assert.equal((await ada.get("/dashboard")).status, 303);
        await ada.get("/sign-in");
        await ada.post("/sign-in", { email: "ada@example.org", password: PASSWORD });
        assert.equal((await ada.get("/dashboard")).status, 200);
        await sql`UPDATE sessions SET expires_at = now() - interval '1 second'`;
        assert.equal((await ada.get("/dashboard")).status, 303);
      });

      await t.step("a hash of older, cheaper parameters is upgraded at sign-in", async () => {
        const old = await oldHash(PASSWORD);
        await sql`UPDATE accounts SET password_hash = ${old} WHERE email = 'ada@example.org'`;
        await ada.get("/sign-in");
        const ok = await ada.post("/sign-in", { email: "ada@example.org", password: PASSWORD });
        assert.equal(ok.status, 303);
        const [row] = await sql`SELECT password_hash FROM accounts WHERE email = 'ada@example.org'`;
        assert.match(row.password_hash, /^scrypt\$ln=17,/);
        assert.equal((await verifyPassword(PASSWORD, row.password_hash)).matches, true);
      });
    } finally {
      await server.close();
    }
  });
}

/** A valid hash of `password` at N=2^14, as an older version of the site might have stored. */
async function oldHash(password: string): Promise<string> {
  const { scrypt, randomBytes } = await import("node:crypto");
  const salt = randomBytes(16);
  const key: Uint8Array = await new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 }, (e, k) => (e ? reject(e) : resolve(k)))
  );
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  return `scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(key)}`;
}
