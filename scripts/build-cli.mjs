// Bundles the CLI (cli/ plus the shared zod schemas and every dependency) into one ESM file for
// Node 20: packages/cli/dist/events.mjs, the `events` bin of the @tech-events/cli package and of
// this repository. Runs as npm's postinstall, so `npx events` works right after `npm ci`.
import { chmod, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}packages/cli/dist/events.mjs`;

// One version: cli/version.ts (what `events --version` prints) must match the package's.
const { version } = JSON.parse(await readFile(`${root}packages/cli/package.json`, "utf8"));
const source = await readFile(`${root}cli/version.ts`, "utf8");
if (!source.includes(`"${version}"`)) {
  console.error(
    `events CLI not built: packages/cli/package.json has version ${version} but cli/version.ts ` +
      "says otherwise; make them the same",
  );
  process.exit(1);
}

let build;
try {
  ({ build } = await import("esbuild"));
} catch {
  // An install without devDependencies (npm ci --omit=dev) must not fail on its postinstall.
  console.warn("events CLI not built: esbuild is not installed (devDependencies omitted)");
  process.exit(0);
}

const result = await build({
  entryPoints: [`${root}cli/main.ts`],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // CommonJS dependencies (commander, cli-table3, csv-parse's cjs parts) call require(). The
  // entry's own #! line stays first.
  banner: {
    js: [
      // The bundle is generated; `deno check` must not type-check its vendored code.
      "// @ts-nocheck",
      'import { createRequire as __createRequire } from "node:module";',
      "const require = __createRequire(import.meta.url);",
    ].join("\n"),
  },
  legalComments: "none",
  // Dropping comments also drops vendored JSDoc `import("...")` types that `deno check` would
  // otherwise try to resolve; names stay readable in stack traces.
  minifyWhitespace: true,
  metafile: true,
  logLevel: "warning",
});
await chmod(outfile, 0o755);

// Installable alone: the bundle may import nothing but Node's own modules (node: ones newer than
// Node 20, such as node:sqlite, are loaded by undici only where they exist).
const builtins = new Set((await import("node:module")).builtinModules);
const foreign = Object.values(result.metafile.outputs)
  .flatMap((output) => output.imports)
  .map((entry) => entry.path)
  .filter((path) => !path.startsWith("node:") && !builtins.has(path));
if (foreign.length > 0) {
  console.error(`events CLI bundle imports packages it does not contain: ${foreign.join(", ")}`);
  process.exit(1);
}
