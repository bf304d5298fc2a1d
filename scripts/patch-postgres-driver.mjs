// Two changes to postgres.js 3.4.9, made by npm's postinstall on the installed copy in
// node_modules; idempotent. Each says what it changes and why.
//
// 1. A crash that takes the whole server down when PostgreSQL restarts (porsager/postgres#1154,
// #1208; the fixes proposed upstream are not released). A write shorter than 1 KiB is sent from a
// setImmediate. When the connection closes first, `closed()` sets `socket = null` and cancels the
// immediate without forgetting it, so
//   1. an immediate that still runs (or a write queued after the close) calls `socket.write` on
//      null: an uncaught TypeError from a timer, which ends the process;
//   2. the stale timer and buffered bytes stay behind: later writes on that connection are never
//      sent (the query hangs until connect_timeout) or are sent behind stale bytes.
// The mend: a write that finds no socket fails its queries with CONNECTION_CLOSED (which the server
// answers with 503) instead of throwing, and closing or ending a connection forgets the pending
// write. tests/ops/postgres-restart.test.ts restarts PostgreSQL under load to prove it.
//
// 2. Which idle connection a statement gets: the one that went idle last, not the one idle longest.
// A PostgreSQL backend pays for its first touch of each shared buffer page (in a VM about 15 us a
// page: a text search reading 2,700 events took 45 ms on a fresh backend, 6 ms after), and the
// driver's oldest-first choice handed a quiet server's statements to each of its ten connections in
// turn, so every one of them paid it for every page: after a load filled the pool, the slowest
// visitor queries took 75-125 ms against 28-50 ms taking the last one (docs/search.md). Under load
// every connection is busy and both choices are the same. tests/ops/connection-reuse.test.ts.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../node_modules/postgres/", import.meta.url));
const PATCHED_VERSION = "3.4.9";

/** Each mend: the files it changes (ESM and CommonJS copies), the mark it leaves, its edits. */
const MENDS = [
  {
    files: ["src/connection.js", "cjs/src/connection.js"],
    mark: "/* tech-events: null-socket write guard */",
    replacements: (mark) => [
      [
        "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
        `  function nextWrite(fn) {\n    ${mark}\n` +
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
    ],
  },
  {
    // The queue of connections gains `pop`, the one pushed last (shift keeps its meaning).
    files: ["src/queue.js", "cjs/src/queue.js"],
    mark: "/* tech-events: last in, first out */",
    replacements: (mark) => [
      [
        "    push: (x) => (xs.push(x), x),\n",
        "    push: (x) => (xs.push(x), x),\n" +
        `    ${mark}\n` +
        "    pop: () => {\n" +
        "      const out = xs.pop()\n" +
        "      if (index >= xs.length) {\n" +
        "        index = 0\n" +
        "        xs = []\n" +
        "      }\n" +
        "      return out\n" +
        "    },\n",
      ],
    ],
  },
  {
    // A statement, a transaction and a reserved connection take the idle connection used last.
    files: ["src/index.js", "cjs/src/index.js"],
    mark: "/* tech-events: idle connection used last */",
    replacements: (mark) => [
      [
        "    if (open.length)\n      return go(open.shift(), query)\n",
        `    ${mark}\n    if (open.length)\n      return go(open.pop(), query)\n`,
      ],
      [
        "    const c = open.length\n      ? open.shift()\n",
        "    const c = open.length\n      ? open.pop()\n",
      ],
    ],
  },
];

async function patch(file, mend) {
  const path = `${root}${file}`;
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return `${file}: not installed`;
  }
  if (text.includes(mend.mark)) return `${file}: already mended`;
  for (const [before, after] of mend.replacements(mend.mark)) {
    if (text.split(before).length !== 2) {
      throw new Error(
        `Cannot mend postgres.js ${file}: its code is not the ${PATCHED_VERSION} this patch was ` +
          "written for. Check whether the new version needs the mend (the comment at the top " +
          "of scripts/patch-postgres-driver.mjs says why each exists) and update the script",
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
  for (const mend of MENDS) for (const file of mend.files) await patch(file, mend);
}
