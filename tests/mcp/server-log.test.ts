/**
 * The server's log is one JSON object per line while it serves, MCP requests included: a log
 * shipper must never meet a plain-text line from the runtime (such as Deno's warning about
 * request.signal, which the first MCP request once printed).
 */
import assert from "node:assert/strict";
import { createTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { type ProcessOutput, startServerProcess } from "../ingest/support/server-process.ts";
import { CLIENT_KINDS, connectClient } from "./support.ts";

/**
 * The lines of `now` written after `before` and before the stop began, on both streams: start-up
 * and stop messages are plain sentences for the person at the terminal.
 */
function servingLines(before: ProcessOutput, now: ProcessOutput): string[] {
  const stderr = now.stderr.slice(before.stderr.length);
  const stopping = stderr.search(/^SIGTERM received/m);
  return [
    ...now.stdout.slice(before.stdout.length).split("\n"),
    ...(stopping < 0 ? stderr : stderr.slice(0, stopping)).split("\n"),
  ].filter((line) => line !== "");
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the server's log stays one JSON object per line through MCP`, async () => {
    const location = await createTestDatabase(kind);
    const server = await startServerProcess({
      ...(location.databaseUrl
        ? { DATABASE_URL: location.databaseUrl }
        : { DATA_DIR: location.dataDir }),
      ADMIN_API_KEY: generateApiKey(),
      EMBEDDINGS_WORKER: "external",
      LOG_REQUESTS: "true",
    });
    let before: ProcessOutput = { stdout: "", stderr: "" };
    let after = before;
    try {
      // Start-up messages are plain sentences for a person: the log proper begins with the first
      // request's line.
      await (await fetch(`${server.url}/healthz`)).body?.cancel();
      for (let i = 0; i < 200 && !server.output().stdout.includes('"/healthz"'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      before = server.output();
      assert.ok(before.stdout.includes('"/healthz"'), before.stdout);
      for (const client of CLIENT_KINDS) {
        const mcp = await connectClient(server.url, client);
        try {
          await mcp.listTools();
          await mcp.callTool("search_events", { query: "jazz" });
          await mcp.callTool("search_events", { query: 42 });
        } finally {
          await mcp.close();
        }
      }
    } finally {
      after = await server.stop();
      await location.drop();
    }
    const lines = servingLines(before, after);
    assert.ok(lines.some((line) => line.includes('"/mcp"')), after.stdout);
    for (const line of lines) {
      let parsed: unknown;
      assert.doesNotThrow(() => parsed = JSON.parse(line), `not JSON: ${line}`);
      assert.equal(typeof parsed, "object", line);
    }
  });
}
