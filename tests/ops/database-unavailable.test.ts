/**
 * A database that is away for a moment (restart, failover, network) is a JSON 503 that says to
 * retry, decided in the one error place; a start-up failure names the setting to change; and the
 * installed driver carries the mend for its restart crash.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { errorResponse } from "../../server/error-response.ts";
import { connectFailureMessage, isDatabaseUnavailable } from "../../server/db/connection-errors.ts";
import { isDriverNullWrite } from "../../server/db/driver-guard.ts";
import { onSiteError } from "../../server/web/site-errors.tsx";
import type { SiteEnv } from "../../server/web/site-context.ts";
import type { StaticAssets } from "../../server/web/static-assets.ts";

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

Deno.test("connection losses and a database that is not accepting are 'unavailable'", () => {
  for (
    const code of [
      "CONNECTION_CLOSED",
      "CONNECTION_ENDED",
      "CONNECTION_DESTROYED",
      "CONNECT_TIMEOUT",
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "57P01",
      "57P02",
      "57P03",
      "53300",
      "08006",
      "08001",
    ]
  ) {
    assert.ok(isDatabaseUnavailable(withCode(code)), code);
  }
  for (const code of ["23505", "42P01", "22P02", "28P01", undefined]) {
    assert.ok(!isDatabaseUnavailable(code ? withCode(code) : new Error("boom")), String(code));
  }
  assert.ok(!isDatabaseUnavailable(null));
});

Deno.test("the error handler answers a lost database with a JSON 503 and Retry-After", async () => {
  const app = new Hono();
  app.get("/closed", () => {
    throw withCode("CONNECTION_CLOSED", "write CONNECTION_CLOSED 127.0.0.1:5432");
  });
  app.get("/shutdown", () => {
    throw withCode("57P01", "terminating connection due to administrator command");
  });
  app.get("/bug", () => {
    throw new TypeError("x is undefined");
  });
  app.onError((err, c) => errorResponse(c, err));
  for (const path of ["/closed", "/shutdown"]) {
    const res = await app.request(path);
    assert.equal(res.status, 503, path);
    assert.equal(res.headers.get("Retry-After"), "2");
    const body = await res.json();
    assert.equal(body.code, "service_unavailable");
    assert.match(body.message, /database is unavailable for a moment.*again in a few seconds/);
    assert.doesNotMatch(JSON.stringify(body), /5432|administrator/);
  }
  assert.equal((await app.request("/bug")).status, 500);
});

Deno.test("a site page answers a lost database with a 503 page and the same Retry-After", async () => {
  const app = new Hono<SiteEnv>();
  const assets = { url: (name: string) => `/static/${name}`, serve: () => new Response() };
  app.use("*", async (c, next) => {
    c.set("assets", assets as StaticAssets);
    c.set("viewer", null);
    await next();
  });
  app.get("/page", () => {
    throw withCode("CONNECTION_CLOSED", "write CONNECTION_CLOSED 127.0.0.1:5432");
  });
  app.onError(onSiteError);
  const res = await app.request("/page", { headers: { Accept: "text/html" } });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("Retry-After"), "2");
  assert.match(res.headers.get("Content-Type") ?? "", /^text\/html/);
  const page = await res.text();
  assert.match(page, /database is unavailable for a moment/);
  assert.doesNotMatch(page, /5432/);
});

Deno.test("a failed first connection names what is wrong and DATABASE_URL, never the password", () => {
  const url = "postgres://app:s3cret@db.example:6543/events";
  const cases: [unknown, RegExp][] = [
    [
      withCode("28P01"),
      /refused the password for user "app": correct the password in DATABASE_URL/,
    ],
    [withCode("3D000"), /no database "events" on db\.example:6543: create it/],
    [withCode("ECONNREFUSED"), /nothing accepts connections at db\.example:6543/],
    [withCode("ENOTFOUND"), /host of DATABASE_URL \(db\.example:6543\) cannot be found/],
    [withCode("CONNECT_TIMEOUT"), /did not answer in time/],
    [
      new Error("something else"),
      /cannot connect to PostgreSQL at db\.example:6543 \(something else\)/,
    ],
  ];
  for (const [err, expected] of cases) {
    const message = connectFailureMessage(err, url);
    assert.match(message, /^Cannot start: /);
    assert.match(message, expected);
    assert.match(message, /DATABASE_URL/);
    assert.doesNotMatch(message, /s3cret|\n/);
  }
});

Deno.test("the installed postgres.js carries the restart mend of scripts/patch-postgres-driver.mjs", async () => {
  for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
    const source = await Deno.readTextFile(
      new URL(`../../node_modules/postgres/${file}`, import.meta.url),
    );
    assert.match(source, /tech-events: null-socket write guard \*\/\n\s+if \(socket === null\)/);
    // Closing and ending a connection forget a write still pending.
    assert.equal(
      source.split("\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n")
        .length,
      3,
    );
  }
});

Deno.test("only the driver's write to a closed connection is let through by the guard", () => {
  const driverError = new TypeError("Cannot read properties of null (reading 'write')");
  driverError.stack = `${driverError.message}\n    at Immediate.nextWrite ` +
    "(file:///app/node_modules/postgres/src/connection.js:255:22)";
  assert.ok(isDriverNullWrite(driverError));
  const ours = new TypeError("Cannot read properties of null (reading 'write')");
  ours.stack = `${ours.message}\n    at file:///app/server/api/post-events.ts:10:3`;
  assert.ok(!isDriverNullWrite(ours));
  assert.ok(!isDriverNullWrite(new Error("reading 'write' postgres/src/connection.js")));
});
