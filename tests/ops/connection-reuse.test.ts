/**
 * A quiet server's statements go to the pool's connection used last, not to each connection in
 * turn (scripts/patch-postgres-driver.mjs, mend 2): a PostgreSQL backend pays for its first touch
 * of each shared buffer page, so statements spread over every connection paid it once per
 * connection. Under load every connection is still used.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../server/db/connect.ts";
import { serverUrl } from "../../dev-support/databases.ts";

const POOL = 4;

Deno.test({
  name: "[postgres] after the pool has filled, one statement at a time reuses one connection",
  ignore: !Deno.env.get("TEST_DATABASE_URL"),
  fn: async () => {
    const db = await openDatabase({ databaseUrl: serverUrl(), dataDir: "", maxConnections: POOL });
    try {
      const backend = async (sleep = 0) => {
        const [row] = await db.sql<{ pid: number }[]>`
          SELECT pg_backend_pid() AS pid, pg_sleep(${sleep})`;
        return row.pid;
      };
      // Concurrent statements open every connection of the pool.
      const busy = await Promise.all(Array.from({ length: POOL * 2 }, () => backend(0.1)));
      assert.equal(new Set(busy).size, POOL, "under load every connection is used");
      const quiet: number[] = [];
      for (let i = 0; i < POOL * 3; i++) quiet.push(await backend());
      assert.equal(new Set(quiet).size, 1, `one statement at a time went to ${quiet}`);
      // A transaction takes the same connection too.
      const inTransaction = await db.sql.begin(async (tx) => {
        const [row] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        return row.pid;
      });
      assert.equal(inTransaction, quiet[0]);
    } finally {
      await db.close();
    }
  },
});

Deno.test("the installed postgres.js takes the idle connection used last", async () => {
  for (const dir of ["src", "cjs/src"]) {
    const read = (file: string) =>
      Deno.readTextFile(new URL(`../../node_modules/postgres/${dir}/${file}`, import.meta.url));
    assert.match(
      await read("index.js"),
      /used last \*\/\n\s+if \(open.length\)\n\s+.*open.pop\(\)/,
    );
    assert.match(await read("queue.js"), /last in, first out \*\/\n\s+pop: /);
  }
});
