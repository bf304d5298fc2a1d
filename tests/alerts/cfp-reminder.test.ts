/**
 * The CFP reminder (docs/alerts.md): a saved search is told once, per event it told of, that the
 * event's call for papers closes within CFP_REMINDER_DAYS; never for a CFP closing later, nor a
 * closed one, nor an event whose key is no longer trusted. Through a real webhook receiver, the
 * reminder pass running every 100 ms; and the mail reads "The CFP of X closes in 3 days".
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { alertMail } from "../../server/alerts/email-delivery.ts";
import { alertSettings, call, eventually, type Json, startReceiver } from "./support.ts";

const DAY_MS = 86_400_000;

/** A conference with a call for papers closing `days` from now (negative: closed). */
function conference(id: string, days: number) {
  return {
    external_id: id,
    platform: "other",
    source_url: `https://conf.example.org/${id}`,
    title: `Zig conference ${id}`,
    starts_at: "2031-09-10T09:00:00Z",
    city: "Vienna",
    country: "Austria",
    cfp_url: `https://cfp.example.org/${id}`,
    cfp_closes_at: new Date(Date.now() + days * DAY_MS).toISOString(),
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a CFP closing within the window is told once per search`, async () => {
    const receiver = startReceiver();
    const server = await startTestApp(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true, webhookRetrySeconds: [0] }),
      alertWorker: { pollMs: 100, cfpReminderEveryMs: 100 },
      embeddingWorker: "external",
    });
    const admin = (path: string) => call(server, { method: "POST", path, key: server.adminKey });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const trusted = await createApiKey(server, { contributor: "lists" });
      const later = await createApiKey(server, { contributor: "distrusted" });
      await admin(`/api/v1/admin/keys/${trusted.id}/trust`);
      await admin(`/api/v1/admin/keys/${later.id}/trust`);
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: { name: "Zig", q: "zig conference", webhook_url: receiver.url },
      });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      const secret: string = saved.body.data.webhook_secret;
      // The distrusted key's event is told of as new while trusted and its CFP far off; its key
      // loses trust, then brings the deadline close.
      const push = async (key: string, events: unknown[]) =>
        assert.equal((await postBatch(server.url, key, { events })).status, 200);
      await push(later.key, [conference("untrusted", 10)]);
      await eventually("the distrusted key's event is told", () => receiver.received.length >= 1);
      await admin(`/api/v1/admin/keys/${later.id}/untrust`);
      await push(later.key, [conference("untrusted", 2)]);
      await push(trusted.key, [
        conference("soon", 2),
        conference("later", 10),
        conference("closed", -2),
      ]);

      await eventually("the reminder arrived", () => receiver.received.length >= 5);
      // Many reminder passes more: none repeats it, none tells of another event.
      await new Promise((r) => setTimeout(r, 1_500));
      const messages = receiver.received.map((r) =>
        new Webhook(secret).verify(r.body, r.headers) as Json
      );
      const told = messages.map((m) => `${m.type} ${m.data.event.external_id}`).sort();
      assert.deepEqual(told, [
        "event.cfp_closing soon",
        "event.new closed",
        "event.new later",
        "event.new soon",
        "event.new untrusted",
      ]);
      const reminder = messages.find((m) => m.type === "event.cfp_closing");
      assert.equal(reminder.data.event.cfp_url, "https://cfp.example.org/soon");
      assert.equal(reminder.data.saved_search.name, "Zig");

      // The private feeds carry the reminded CFP beside the events, and only that one.
      const feed = async (url: string) => await (await server.fetch(new URL(url).pathname)).text();
      const atom = await feed(saved.body.data.feed_atom_url);
      assert.deepEqual(atom.match(/CFP closes: [^<]*/g), ["CFP closes: Zig conference soon"]);
      assert.match(atom, /Zig conference later/);
      const ics = await feed(saved.body.data.feed_ics_url);
      assert.deepEqual(ics.match(/UID:cfp-[^\r\n]*/g)?.length, 1);
      assert.match(ics, /SUMMARY:CFP closes: Zig conference soon/);
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  Deno.test(`[${kind}] a paused search is not reminded until it is resumed`, async () => {
    const receiver = startReceiver();
    const server = await startTestApp(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true, webhookRetrySeconds: [0] }),
      alertWorker: { pollMs: 100, cfpReminderEveryMs: 100 },
      embeddingWorker: "external",
    });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const trusted = await createApiKey(server, { contributor: "lists" });
      await call(server, {
        method: "POST",
        path: `/api/v1/admin/keys/${trusted.id}/trust`,
        key: server.adminKey,
      });
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: { name: "Zig", q: "zig", webhook_url: receiver.url },
      });
      const path = `/api/v1/me/searches/${saved.body.data.id}`;
      // Told of as new while the CFP is far off; paused before it comes close.
      const far = conference("paused", 10);
      assert.equal((await postBatch(server.url, trusted.key, { events: [far] })).status, 200);
      await eventually("the new event is told", () => receiver.received.length === 1);
      await call(server, { method: "PATCH", path, key: owner.key, body: { paused: true } });
      const near = { ...far, cfp_closes_at: new Date(Date.now() + DAY_MS).toISOString() };
      assert.equal((await postBatch(server.url, trusted.key, { events: [near] })).status, 200);
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(receiver.received.length, 1, "nothing while paused");
      await call(server, { method: "PATCH", path, key: owner.key, body: { paused: false } });
      await eventually("the reminder arrived", () => receiver.received.length === 2);
      assert.equal(JSON.parse(receiver.received[1].body).type, "event.cfp_closing");
    } finally {
      await server.close();
      await receiver.close();
    }
  });
}

Deno.test("the reminder mail says whose CFP closes, and in how many days", () => {
  const now = Date.parse("2031-03-01T10:00:00Z");
  const mail = alertMail({
    to: "ann@example.org",
    searchName: "Zig",
    base: "https://events.example.org",
    unsubscribeToken: "t",
    messages: [{
      type: "event.cfp_closing",
      timestamp: new Date(now).toISOString(),
      data: {
        saved_search: { id: "s", name: "Zig" },
        event: {
          id: "e1",
          title: "Zig Days",
          starts_at: "2031-06-10T09:00:00Z",
          cfp_url: "https://cfp.example.org/zig",
          cfp_closes_at: new Date(now + 2.5 * DAY_MS).toISOString(),
        },
      },
    }],
  });
  assert.equal(mail.subject, "The CFP of Zig Days closes in 3 days (Zig)");
  assert.match(mail.text, /The CFP of Zig Days closes in 3 days\n {2}Submit: https:\/\/cfp/);
  assert.match(mail.html, /href="https:\/\/events.example.org\/events\/e1"/);
});
