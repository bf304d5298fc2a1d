/**
 * What a person and a pipeline read: errors alone, JSON error objects, a short summary, grouped
 * problems that name their fix, colours only on a terminal and never with NO_COLOR, progress.
 */
import assert from "node:assert/strict";
import { ensureBuilt, runCli } from "../../dev-support/run-cli.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
// deno-lint-ignore no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/;

async function writeTemp(name: string, text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "events-cli-output-" });
  await Deno.writeTextFile(`${dir}/${name}`, text);
  return `${dir}/${name}`;
}

/** Runs the CLI inside a pseudo-terminal (util-linux `script`): what a person at a terminal sees. */
async function runInTerminal(args: string[], env: Record<string, string> = {}) {
  await ensureBuilt();
  const command = ["node", `${ROOT}packages/cli/dist/events.mjs`, ...args]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const output = await new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, text: new TextDecoder().decode(output.stdout) };
}

/** A CSV of `rows` events; `bad(i)` rows lack their source_url. */
function csv(rows: number, bad: (i: number) => boolean = () => false): string {
  const lines = ["external_id,title,source_url,starts_at"];
  for (let i = 0; i < rows; i++) {
    const url = bad(i) ? "" : `https://ex.org/${i}`;
    lines.push(`e${i},Event ${i},${url},2030-01-01T10:00:00Z`);
  }
  return lines.join("\n") + "\n";
}

Deno.test("a missing file, an unknown format or a bad option print the error alone", async () => {
  const empty = await writeTemp("feed.txt", "just some words\n");
  for (
    const args of [["validate", "/nonexistent/feed.ics"], ["validate", empty], [
      "push",
      "x.ics",
      "--nope",
    ]]
  ) {
    const run = await runCli(args);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "", `nothing on stdout for ${args.join(" ")}`);
    assert.match(run.stderr, /^error: /m);
    assert.doesNotMatch(run.stderr, /Records read|Inserted|│/);
  }
});

Deno.test("with --json every failure is one JSON error object, usage errors too", async () => {
  const cases: [string[], number, string, RegExp][] = [
    [["validate", "/nonexistent/feed.ics", "--json"], 2, "input", /no such file/],
    [["validate", "x.ics", "--json", "--horizon", "0"], 2, "usage", /--horizon 0/],
    [["push", "x.ics", "--json", "--no-such-option"], 2, "usage", /unknown option/],
    [["push", "--json"], 2, "usage", /missing required argument/],
    [["push", "x.ics", "--json", "--api-key", "evk_nope"], 3, "auth", /malformed/],
    [["admin", "keys", "--json"], 3, "auth", /ADMIN_API_KEY/],
    [["validate", "x.ics", "--json", "--max-invalid", "lots"], 2, "usage", /--max-invalid lots/],
  ];
  for (const [args, code, kind, message] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, code, `${args.join(" ")}: ${run.stderr}`);
    const body = run.json();
    assert.deepEqual([body.ok, body.exit_code, body.error_kind], [false, code, kind]);
    assert.match(body.error, message);
  }
});

Deno.test("a run prints a short summary; --verbose adds every figure and every problem", async () => {
  const path = await writeTemp("feed.csv", csv(30, (i) => i % 10 === 3));
  const short = await runCli(["validate", path]);
  assert.equal(short.code, 1);
  const summary = short.stdout.trim().split("\n");
  assert.ok(summary.length <= 4, short.stdout);
  assert.match(summary[0], /^Read 30 records from .*feed\.csv: 27 valid, 3 invalid\.$/);
  assert.doesNotMatch(short.stdout, /│/);
  // Three alike problems are one line with their count and first places, naming the fix.
  const lines = short.stderr.trim().split("\n");
  assert.equal(lines.length, 2, short.stderr);
  assert.match(
    lines[0],
    /^invalid, 3 records: source_url is required: fill a source_url column \(or --map COLUMN=source_url\) or pass --source-url URL \(first at .*feed\.csv: lines 5, 15, 25\)$/,
  );
  assert.match(lines[1], /^error: 3 record\(s\) invalid .*--max-invalid/);

  const verbose = await runCli(["validate", path, "--verbose"]);
  assert.match(verbose.stdout, /Records read\s*│\s*30/);
  assert.equal(verbose.stderr.match(/: invalid: source_url is required/g)?.length, 3);
});

Deno.test("365 alike problems are one grouped line; --json has each and the groups", async () => {
  const path = await writeTemp("feed.csv", csv(400, (i) => i < 365));
  const run = await runCli(["validate", path]);
  assert.equal(
    run.stderr.split("\n").filter((l) => l.includes("source_url is required")).length,
    1,
  );
  assert.match(run.stderr, /invalid, 365 records: .*lines 2, 3, 4, …\)/);
  const json = (await runCli(["validate", path, "--json"])).json();
  assert.equal(json.problems.length, 365);
  assert.deepEqual(json.problem_groups.map((g: { count: number }) => g.count), [365]);
  assert.equal(json.problem_groups[0].first_locations.length, 3);
});

Deno.test("times without an offset name --timezone as the fix", async () => {
  const path = await writeTemp(
    "feed.ndjson",
    JSON.stringify({
      external_id: "a",
      title: "A",
      source_url: "https://ex.org/a",
      starts_at: "2030-01-01T10:00:00",
    }),
  );
  const run = await runCli(["validate", path, "--json"]);
  assert.match(run.json().problems[0].message, /pass --timezone ZONE/);
  const fixed = await runCli(["validate", path, "--timezone", "Europe/Berlin", "--json"]);
  assert.equal(fixed.code, 0, fixed.stdout);
});

Deno.test("--max-invalid lets a run succeed with a few bad records, as a count or a share", async () => {
  const path = await writeTemp("feed.csv", csv(10, (i) => i < 2));
  const code = async (...extra: string[]) => (await runCli(["validate", path, ...extra])).code;
  assert.equal(await code(), 1);
  assert.equal(await code("--max-invalid", "2"), 0);
  assert.equal(await code("--max-invalid", "1"), 1);
  assert.equal(await code("--max-invalid", "20%"), 0);
  assert.equal(await code("--max-invalid", "19.5%"), 1);
  const dry = await runCli(["push", path, "--dry-run", "--strict", "--max-invalid", "2", "--json"]);
  assert.equal(dry.code, 0, dry.stdout);
  assert.equal(dry.json().events.length, 8);
  assert.equal(dry.json().max_invalid, "2");
  const strict = await runCli(["push", path, "--dry-run", "--strict", "--max-invalid", "1"]);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict sent nothing/);
});

Deno.test("colours appear on a terminal only, and never with NO_COLOR", async () => {
  const path = await writeTemp("feed.csv", csv(3, (i) => i === 0));
  const coloured = await runInTerminal(["validate", path, "--verbose"]);
  assert.match(coloured.text, COLOUR, "a terminal gets colours");
  const plain = await runInTerminal(["validate", path, "--verbose"], { NO_COLOR: "1" });
  assert.doesNotMatch(plain.text, COLOUR);
  assert.match(plain.text, /Records read/);
  const piped = await runCli(["validate", path, "--verbose"]);
  assert.doesNotMatch(piped.stdout + piped.stderr, COLOUR);
});

Deno.test("a terminal gets a progress bar; a log gets no progress lines for a short run", async () => {
  const path = await writeTemp("feed.csv", csv(2000));
  const terminal = await runInTerminal(["validate", path], { NO_COLOR: "1" });
  assert.equal(terminal.code, 0, terminal.text);
  assert.match(terminal.text, /\[[#-]{24}\] [\d,]+ records read \(\d+% of the input\)/);
  const piped = await runCli(["validate", path]);
  assert.doesNotMatch(piped.stderr, /progress:/);
});
