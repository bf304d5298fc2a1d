// Bundles the CLI (cli/ plus the shared zod schemas) into one ESM file for Node 20: the package's
// `events` bin. Runs as npm's postinstall, so `npx events` works right after `npm ci`.
import { chmod } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}cli/dist/events.mjs`;

let build;
try {
  ({ build } = await import("esbuild"));
} catch {
  // An install without devDependencies (npm ci --omit=dev) must not fail on its postinstall.
  console.warn("events CLI not built: esbuild is not installed (devDependencies omitted)");
  process.exit(0);
}

await build({
  entryPoints: [`${root}cli/main.ts`],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // CommonJS dependencies (commander, cli-table3, csv-parse's cjs parts) call require().
  banner: {
    js: [
      // The bundle is generated; `deno check cli/` must not type-check its vendored code.
      "// @ts-nocheck",
      'import { createRequire as __createRequire } from "node:module";',
      "const require = __createRequire(import.meta.url);",
    ].join("\n"),
  },
  legalComments: "none",
  // Dropping comments also drops vendored JSDoc `import("...")` types that `deno check cli/`
  // would otherwise try to resolve; names stay readable in stack traces.
  minifyWhitespace: true,
  logLevel: "warning",
});
await chmod(outfile, 0o755);
