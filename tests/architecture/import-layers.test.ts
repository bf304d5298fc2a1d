/**
 * Layers import one way: surfaces (api, web, mcp, middleware) -> rules
 * (auth, accounts, search, events, embeddings, duplicates, federation) -> the data layer (db) -> base modules and shared/.
 * A module never imports one of a higher layer, nothing imports itself round a cycle, the CLI
 * and the server share only shared/,
 * and scripts never import tests: what both need lives in dev-support/.
 */
import assert from "node:assert/strict";
import { findCycles, type ImportEdge, importEdges, sourceFiles } from "./import-graph.ts";

/** Each server module's layer, first match wins; a module no rule places fails the test. */
const LAYERS: [RegExp, number, string][] = [
  [/^shared\//, 0, "shared"],
  [
    /^server\/(errors|uuid|config|log-line|client-address|request-origin|base64url)\.ts$/,
    0,
    "base",
  ],
  [/^server\/(standalone-error|run-until-signal|in-flight)\.ts$/, 0, "base"],
  // Name tables the duplicate normalisers read: data, importing nothing.
  [/^server\/matching-names\.ts$/, 0, "base"],
  [/^server\/http-front\//, 0, "base"],
  [/^server\/db\//, 1, "db"],
  [/^server\/embeddings\/worker-main\.ts$/, 4, "entry point"],
  [/^server\/(auth|accounts|search|events|embeddings|duplicates|alerts|federation)\//, 2, "rules"],
  [/^server\/error-response\.ts$/, 2, "rules"],
  [/^server\/(api|web|mcp|middleware)\//, 3, "surfaces"],
  [/^server\/(app|serve|main|http-listen|request-drain)\.ts$/, 4, "composition"],
];

/** The Hono context's types (AppDeps, Principal): known to every layer, holding no code. */
const CONTEXT_TYPES = "server/app-env.ts";

function layerOf(path: string): { rank: number; name: string } | undefined {
  const found = LAYERS.find(([pattern]) => pattern.test(path));
  return found && { rank: found[1], name: found[2] };
}

const files = await sourceFiles(["server", "shared", "cli", "scripts", "tests"]);
const edges = await importEdges(files);
const describe = (e: ImportEdge) => `${e.from} imports ${e.to}${e.typeOnly ? " (types)" : ""}`;

Deno.test("the graph is read: every kind of import statement is seen", () => {
  assert.ok(edges.length > 1_000, `only ${edges.length} imports found`);
  const has = (from: string, to: string, typeOnly: boolean) =>
    edges.some((e) => e.from === from && e.to === to && e.typeOnly === typeOnly);
  assert.ok(has("server/app.ts", "server/errors.ts", false));
  assert.ok(has("server/app-env.ts", "server/config.ts", true));
  assert.ok(has("server/serve.ts", "server/app.ts", false));
});

Deno.test("every server module has a layer", () => {
  const unplaced = files.filter((f) => f.startsWith("server/") && f !== CONTEXT_TYPES)
    .filter((f) => !layerOf(f));
  assert.deepEqual(unplaced, [], "add the new module's place to LAYERS");
});

Deno.test("server modules import only their own layer or lower ones", () => {
  const wrongWay = edges.filter((e) => {
    if (e.to === CONTEXT_TYPES) return !e.typeOnly;
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    return from !== undefined && to !== undefined && to.rank > from.rank;
  });
  assert.deepEqual(wrongWay.map(describe), []);
});

Deno.test("the context types import only types", () => {
  const runtime = edges.filter((e) => e.from === CONTEXT_TYPES && !e.typeOnly);
  assert.deepEqual(runtime.map(describe), []);
});

Deno.test("no module imports itself round a cycle, not even for types", () => {
  const cycles = findCycles(edges.filter((e) => !e.from.startsWith("tests/")));
  assert.deepEqual(cycles.map((c) => c.join(" -> ")), []);
  // The finder itself finds a cycle where there is one.
  const ring = ["a", "b", "c"].map((from, i, all) => ({
    from,
    to: all[(i + 1) % all.length],
    typeOnly: true,
  }));
  assert.deepEqual(findCycles(ring), [["a", "b", "c", "a"]]);
});

Deno.test("the CLI and the server share only shared/, which imports neither", () => {
  const crossing = edges.filter((e) =>
    (e.from.startsWith("cli/") && e.to.startsWith("server/")) ||
    (e.from.startsWith("server/") && e.to.startsWith("cli/")) ||
    (e.from.startsWith("shared/") && !e.to.startsWith("shared/"))
  );
  assert.deepEqual(crossing.map(describe), []);
});

Deno.test("scripts never import tests; what both need lives in dev-support/", () => {
  const reaching = edges.filter((e) => e.from.startsWith("scripts/") && e.to.startsWith("tests/"));
  assert.deepEqual(reaching.map(describe), []);
});
