/** The CLI's own npm package: one version, one file with no dependency to install. */
import assert from "node:assert/strict";
import { builtinModules } from "node:module";
import { BUNDLE, runCli } from "../../dev-support/run-cli.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("events --version prints the version of the @tech-events/cli package", async () => {
  const pkg = JSON.parse(await Deno.readTextFile(`${ROOT}packages/cli/package.json`));
  const run = await runCli(["--version"]);
  assert.equal(run.stdout.trim(), pkg.version);
  assert.equal(pkg.name, "@tech-events/cli");
  assert.deepEqual(pkg.bin, { events: "dist/events.mjs" });
  assert.equal(pkg.dependencies, undefined, "the bundle carries every dependency");
  const root = JSON.parse(await Deno.readTextFile(`${ROOT}package.json`));
  assert.equal(root.bin.events, "packages/cli/dist/events.mjs");
});

Deno.test("the CLI package states the repository's licence and ships its text", async () => {
  const pkg = JSON.parse(await Deno.readTextFile(`${ROOT}packages/cli/package.json`));
  const root = JSON.parse(await Deno.readTextFile(`${ROOT}package.json`));
  assert.equal(root.license, "MIT");
  assert.equal(pkg.license, root.license);
  assert.ok(pkg.files.includes("LICENSE"));
  assert.equal(
    await Deno.readTextFile(`${ROOT}packages/cli/LICENSE`),
    await Deno.readTextFile(`${ROOT}LICENSE`),
  );
});

Deno.test("the bundle imports nothing but Node's own modules", async () => {
  const text = await Deno.readTextFile(BUNDLE);
  const imported = [...text.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["']([^"']+)["']/g)]
    .map((m) => m[1]);
  assert.ok(imported.length > 0);
  const builtins = new Set(builtinModules);
  assert.deepEqual(imported.filter((name) => !name.startsWith("node:") && !builtins.has(name)), []);
});
