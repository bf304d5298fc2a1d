// Mends a crash of postgres.js 3.4.9 that takes the whole server down when PostgreSQL restarts
// (porsager/postgres#1154, #1208; the fixes proposed upstream are not released). Runs as part of
// npm's postinstall, on the installed copy in node_modules; idempotent.
//
// The defect: a write shorter than 1 KiB is sent from a setImmediate. When the connection closes
// first, `closed()` sets `socket = null` and cancels the immediate without forgetting it, so
//   1. an immediate that still runs (or a write queued after the close) calls `socket.write` on
//      null: an uncaught TypeError from a timer, which ends the process;
//   2. the stale timer and buffered bytes stay behind: later writes on that connection are never
//      sent (the query hangs until connect_timeout) or are sent behind stale bytes.
// The mend: a write that finds no socket fails its queries with CONNECTION_CLOSED (which the server
// answers with 503) instead of throwing, and closing or ending a connection forgets the pending
// write. tests/ops/postgres-restart.test.ts restarts PostgreSQL under load to prove it.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../node_modules/postgres/", import.meta.url));
const MARK = "/* tech-events: null-socket write guard */";
const PATCHED_VERSION = "3.4.9";

const REPLACEMENTS = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    `  function nextWrite(fn) {\n    ${MARK}\n` +
    "    if (socket === null) {\n" +
    "      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
    "      chunk = nextWriteTimer = null\n" +
    "      error(Errors.connection('CONNECTION_CLOSED', options))\n" +
    "      return false\n" +
    "    }\n" +
    "    const x = socket.write(chunk, fn)",
  ],
  [
    "    terminated = true\n    if (stream || query || initial || sent.length)\n" +
    "      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n" +
    "    clearImmediate(nextWriteTimer)\n",
    "    terminated = true\n    if (stream || query || initial || sent.length)\n" +
    "      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n" +
    "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n",
  ],
  [
    "    incomings = null\n    clearImmediate(nextWriteTimer)\n",
    "    incomings = null\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n",
  ],
];

async function patch(file) {
  const path = `${root}${file}`;
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return `${file}: not installed`;
  }
  if (text.includes(MARK)) return `${file}: already mended`;
  for (const [before, after] of REPLACEMENTS) {
    if (text.split(before).length !== 2) {
      throw new Error(
        `Cannot mend postgres.js ${file}: its code is not the ${PATCHED_VERSION} this patch was ` +
          "written for. Check whether the new version fixes porsager/postgres#1154 and update " +
          "scripts/patch-postgres-driver.mjs",
      );
    }
    text = text.replace(before, after);
  }
  await writeFile(path, text);
  return `${file}: mended`;
}

const { version } = JSON.parse(await readFile(`${root}package.json`, "utf8").catch(() => "{}"));
if (version === undefined) {
  console.warn("postgres.js is not installed: nothing to mend");
} else {
  for (const file of ["src/connection.js", "cjs/src/connection.js"]) await patch(file);
}
