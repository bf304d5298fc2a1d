/**
 * The embedded database's in-process connection (server/db/in-process-socket.ts) keeps the
 * promises of a socket to PostgreSQL: a message split across writes arrives whole, a client that
 * goes away mid-transaction leaves nothing behind, and a request PGlite cannot honour (a cancel)
 * closes that connection alone.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { InProcessSocket, simpleQuery } from "../../server/db/in-process-socket.ts";

function client(pglite: PGlite) {
  return postgres({
    user: "postgres",
    database: "postgres",
    max: 1,
    onnotice: () => {},
    ...{ socket: () => new InProcessSocket(pglite) },
  });
}

/** The startup message of protocol 3.0 for user and database postgres. */
function startupMessage(): Buffer {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4);
  body.copy(message, 8);
  return message;
}

/** The type bytes of the messages in `bytes`. */
function messageTypes(bytes: Buffer): string {
  let types = "";
  for (let at = 0; at < bytes.length; at += 1 + bytes.readInt32BE(at + 1)) {
    types += String.fromCharCode(bytes[at]);
  }
  return types;
}

Deno.test("[pglite] the in-process connection", async (t) => {
  const pglite = await PGlite.create();
  try {
    await t.step("a startup and a query written a byte at a time are answered whole", async () => {
      const socket = new InProcessSocket(pglite);
      const received: Buffer[] = [];
      socket.on("data", (data: Buffer) => received.push(data));
      const closed = new Promise((resolve) => socket.once("close", resolve));
      const bytes = Buffer.concat([startupMessage(), simpleQuery("SELECT 41 + 1 AS answer")]);
      for (const byte of bytes) socket.write(Buffer.from([byte]));
      socket.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
      await closed;
      const answer = Buffer.concat(received);
      // Authentication, parameters, key, ready; then the row's description, the row, its
      // completion and ready again (PGlite reports parameters there once too).
      assert.match(messageTypes(answer), /^RS+KZS*TDCS*Z$/);
      assert.ok(answer.includes(Buffer.from("42")), "the row holds 42");
    });

    await t.step("a transaction its client left open is rolled back", async () => {
      const first = client(pglite);
      await first`CREATE TABLE IF NOT EXISTS left_open (id int)`;
      await first.unsafe("BEGIN");
      await first`INSERT INTO left_open VALUES (1)`;
      await first.end({ timeout: 1 });
      assert.equal(pglite.isInTransaction(), false);
      const second = client(pglite);
      try {
        const [{ count }] = await second`SELECT count(*)::int AS count FROM left_open`;
        assert.equal(count, 0, "the insert of the abandoned transaction is gone");
      } finally {
        await second.end();
      }
    });

    await t.step("a cancel request closes its own connection and no other", async () => {
      const working = client(pglite);
      try {
        const socket = new InProcessSocket(pglite);
        const closed = new Promise((resolve) => socket.once("close", resolve));
        const cancel = Buffer.alloc(16);
        cancel.writeInt32BE(16, 0);
        cancel.writeInt32BE(80877102, 4);
        socket.write(cancel);
        assert.equal(await closed, false);
        assert.equal(socket.readyState, "closed");
        assert.equal((await working`SELECT 1 AS one`)[0].one, 1, "the other connection goes on");
      } finally {
        await working.end();
      }
    });

    await t.step("a failing statement leaves the connection usable", async () => {
      const sql = client(pglite);
      try {
        await assert.rejects(() => sql`SELECT * FROM no_such_table`, /no_such_table/);
        assert.equal((await sql`SELECT ${"still here"}::text AS text`)[0].text, "still here");
      } finally {
        await sql.end();
      }
    });
  } finally {
    await pglite.close();
  }
});
