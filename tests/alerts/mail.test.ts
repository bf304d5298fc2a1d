/**
 * Alert mails through a real SMTP receiver (the `smtp-server` package, in-process): the address is
 * confirmed by a mailed link first; a matching event then arrives as a mail with plain text and
 * HTML and a one-click unsubscribe (RFC 8058) that works without cookies; after it, no more mail.
 */
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { FormClient, signUp } from "../web/support/form-client.ts";
import { alertSettings, call, eventually } from "./support.ts";

/** A mail as it arrived: its head's fields (unfolded) and the whole raw text. */
interface Arrived {
  to: string[];
  header(name: string): string | undefined;
  raw: string;
}

function startSmtpReceiver(): Promise<{ port: number; mails: Arrived[]; close(): Promise<void> }> {
  const mails: Arrived[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", () => {
        const raw = new TextDecoder().decode(
          Uint8Array.from(chunks.flatMap((c) => [...c])),
        );
        const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
        const fields = head.split(/\r?\n/).map((l) => [
          l.slice(0, l.indexOf(":")).toLowerCase(),
          l.slice(l.indexOf(":") + 1).trim(),
        ]);
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          header: (name) => fields.find(([n]) => n === name.toLowerCase())?.[1],
          raw,
        });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = (server.server.address() as { port: number }).port;
      resolve({ port, mails, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** Quoted-printable soft breaks and escapes undone, enough to find a link in a body. */
function unQuote(text: string): string {
  return text.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] alert mails go to a confirmed address and unsubscribe in one click`, async (t) => {
    const smtp = await startSmtpReceiver();
    const server = await startTestServer(kind, {
      alerts: alertSettings({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` }),
      alertWorker: { pollMs: 100, digestPeriodMs: 1_000 },
      embeddingWorker: "external",
    });
    const email = "reader@example.org";
    try {
      const visitor = new FormClient(server.url);
      await t.step("sign-up mails a link that confirms the address", async () => {
        await signUp(visitor, email, "a long enough password 1");
        await eventually("the confirmation mail arrives", () => smtp.mails.length === 1);
        assert.deepEqual(smtp.mails[0].to, [email]);
        const link = /(http:\/\/\S+\/account\/confirm-email\?token=[\w-]+)/.exec(
          unQuote(smtp.mails[0].raw),
        )?.[1];
        assert.ok(link, "the mail holds the link");
        const confirmed = await fetch(link);
        assert.equal(confirmed.status, 200);
        assert.ok((await confirmed.text()).includes("confirmed"));
        const again = await fetch(link);
        assert.equal(again.status, 400, "a link works once");
        await again.body?.cancel();
      });

      const owner = await createApiKey(server, { contributor: email, scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "feeds" });
      await call(server, {
        method: "POST",
        path: `/api/v1/admin/keys/${pusher.id}/trust`,
        key: server.adminKey,
      });
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: { name: "Haskell", q: "haskell", email: "instant" },
      });
      const push = (...ns: number[]) =>
        postBatch(server.url, pusher.key, {
          events: ns.map((n) => ({
            external_id: `hs-${n}`,
            source_url: `https://example.org/hs/${n}`,
            title: `Haskell study group ${n}`,
            starts_at: "2031-11-01T17:00:00Z",
            city: "Utrecht",
          })),
        });

      let unsubscribe = "";
      await t.step(
        "a matching event arrives as one mail, text and HTML, with unsubscribe",
        async () => {
          assert.equal(saved.status, 201, JSON.stringify(saved.body));
          await push(1);
          await eventually("the alert mail arrives", () => smtp.mails.length === 2);
          const mail = smtp.mails[1];
          assert.deepEqual(mail.to, [email]);
          assert.match(mail.header("content-type")!, /^multipart\/alternative/);
          assert.ok(mail.raw.includes("Content-Type: text/plain"));
          assert.ok(mail.raw.includes("Content-Type: text/html"));
          assert.ok(unQuote(mail.raw).includes("Haskell study group 1"));
          assert.equal(mail.header("list-unsubscribe-post"), "List-Unsubscribe=One-Click");
          unsubscribe = /^<(http:\/\/\S+)>$/.exec(mail.header("list-unsubscribe")!)![1];
          assert.match(unsubscribe, /\/alerts\/unsubscribe\/[\w-]{43}$/);
        },
      );

      await t.step("a daily search gets one digest of what matched since the last", async () => {
        const daily = await call(server, {
          method: "PATCH",
          path: `/api/v1/me/searches/${saved.body.data.id}`,
          key: owner.key,
          body: { email: "daily" },
        });
        assert.equal(daily.status, 200, JSON.stringify(daily.body));
        await push(3, 4);
        await eventually("the digest arrives", () => smtp.mails.length === 3);
        const text = unQuote(smtp.mails[2].raw);
        assert.ok(text.includes("Haskell study group 3") && text.includes("Haskell study group 4"));
        assert.ok(!text.includes("Haskell study group 1"), "only what is new since");
        assert.ok(smtp.mails[2].header("list-unsubscribe"));
        await new Promise((r) => setTimeout(r, 1_500));
        assert.equal(smtp.mails.length, 3, "one digest, no more without news");
      });

      await t.step("the one-click POST, with no cookie, stops the mails", async () => {
        const page = await fetch(unsubscribe);
        assert.equal(page.status, 200, "the link alone only shows a button");
        await page.body?.cancel();
        const before = await call(server, {
          method: "GET",
          path: `/api/v1/me/searches/${saved.body.data.id}`,
          key: owner.key,
        });
        assert.equal(before.body.data.email, "daily");
        const res = await fetch(unsubscribe, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const after = await call(server, {
          method: "GET",
          path: `/api/v1/me/searches/${saved.body.data.id}`,
          key: owner.key,
        });
        assert.equal(after.body.data.email, "off");
        await push(2);
        await new Promise((r) => setTimeout(r, 1_500));
        assert.equal(smtp.mails.length, 3, "no mail after unsubscribing");
      });
    } finally {
      await server.close();
      await smtp.close();
    }
  });
}
