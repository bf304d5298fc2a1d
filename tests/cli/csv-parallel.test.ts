/**
 * Large CSV inputs are checked on worker threads: the outcome is the same as on one thread, record
 * for record, with the same locations and messages, also for a syntax error at the end.
 */
import assert from "node:assert/strict";
import { runCli } from "../../dev-support/run-cli.ts";

const PARALLEL = { EVENTS_PARALLEL_MIN_BYTES: "0", EVENTS_WORKERS: "2" };
const SEQUENTIAL = { EVENTS_WORKERS: "0" };

/** A CSV of `rows` rows; every 7th lacks its title, every 11th has a two-line description. */
function csv(rows: number, tail = ""): string {
  const lines = ["external_id;title;source_url;starts_at;description;price_min"];
  for (let i = 0; i < rows; i++) {
    const title = i % 7 === 3 ? "" : `Event ${i}`;
    const description = i % 11 === 5 ? `"first line\r\nsecond; line"` : "plain";
    lines.push(`e${i};${title};https://ex.org/${i};2030-01-01 10:00;${description};${i % 50},50`);
  }
  return lines.join("\r\n") + "\r\n" + tail;
}

async function writeTemp(text: string): Promise<string> {
  const path = `${await Deno.makeTempDir({ prefix: "events-cli-parallel-" })}/feed.csv`;
  await Deno.writeTextFile(path, text);
  return path;
}

function comparable(summary: Record<string, unknown>) {
  const { duration_ms: _d, ...rest } = summary;
  return rest;
}

Deno.test("worker threads give the same records, locations and messages as one thread", async () => {
  // Larger than one block (256 KiB), so several workers share the rows.
  const path = await writeTemp(csv(12_000));
  for (const command of [["validate"], ["push", "--dry-run"]]) {
    const args = [...command, path, "--timezone", "Europe/Berlin", "--json"];
    const [parallel, sequential] = await Promise.all([
      runCli(args, { env: PARALLEL }),
      runCli(args, { env: SEQUENTIAL }),
    ]);
    assert.equal(parallel.code, 1, parallel.stderr);
    const p = parallel.json();
    assert.deepEqual([p.records, p.valid, p.invalid], [12_000, 10_286, 1_714]);
    assert.deepEqual(comparable(p), comparable(sequential.json()));
  }
});

Deno.test("a quote left open near the end stops the run after the rows before it, in any mode", async () => {
  const path = await writeTemp(
    csv(9_000, 'late;"never closed;https://ex.org/x;2030-01-01 10:00;x;1\r\n'),
  );
  const [parallel, sequential] = await Promise.all([
    runCli(["validate", path, "--timezone", "UTC", "--json"], { env: PARALLEL }),
    runCli(["validate", path, "--timezone", "UTC", "--json"], { env: SEQUENTIAL }),
  ]);
  assert.equal(parallel.code, 2);
  const p = parallel.json();
  assert.match(p.error, /a quoted cell is never closed \(it opens on line 9\d\d\d\)/);
  assert.equal(p.records, 9_000);
  assert.deepEqual(comparable(p), comparable(sequential.json()));
});
