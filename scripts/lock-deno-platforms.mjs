// Records deno's other-platform binary packages in package-lock.json. The registry this project
// installs from lacks them, so `npm install` leaves them out, and `npm ci` then refuses the lock.
// Entries with os/cpu set are skipped on other platforms without being fetched.
// Run after any `npm install`: node scripts/lock-deno-platforms.mjs
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const deno = lock.packages["node_modules/deno"];
let added = 0;
for (const [name, version] of Object.entries(deno?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu] = name.replace("@deno/", "").split("-");
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    license: "MIT",
    optional: true,
    os: [os],
    ...(name.endsWith("-glibc") ? { libc: ["glibc"] } : {}),
  };
  added++;
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, JSON.stringify({ ...lock, packages: sorted }, null, 2) + "\n");
console.log(`package-lock.json: ${added} deno platform entr${added === 1 ? "y" : "ies"} added`);
