/**
 * Every real calendar in tests/fixtures, through the built CLI's validate and push --dry-run, with
 * the default window and a twenty-year one: whatever a file holds, the CLI ends with a documented
 * exit code and says why, never with an internal error.
 */
import assert from "node:assert/strict";
import { DATA } from "./support/read-file.ts";
import { type CliRun, runCli } from "../../dev-support/run-cli.ts";

const FOLDERS = ["ics-icaljs", "ics-node-ical"];
const WINDOWS = [[], ["--from", "2015-01-01", "--horizon", "7300"]];

function calendars(): string[] {
  const files: string[] = [];
  for (const folder of FOLDERS) {
    for (const entry of Deno.readDirSync(`${DATA}${folder}`)) {
      if (entry.isFile && entry.name.endsWith(".ics")) files.push(`${folder}/${entry.name}`);
    }
  }
  return files.sort();
}

function assertEndedWithReason(run: CliRun, what: string, json: boolean): void {
  const context = `${what} exited ${run.code}\nstderr: ${run.stderr.slice(0, 2000)}`;
  assert.ok(!/internal error/i.test(run.stderr), context);
  assert.ok([0, 1, 2].includes(run.code), context);
  if (json) {
    const summary = run.json();
    assert.equal(summary.exit_code, run.code, context);
    if (run.code !== 0) assert.ok(summary.error || summary.problems.length > 0, context);
  } else if (run.code !== 0) {
    assert.match(run.stderr, /^error: \S/m, context);
  }
}

for (const file of calendars()) {
  Deno.test(`${file} is validated and dry-run pushed without an internal error`, async () => {
    const path = `${DATA}${file}`;
    await Promise.all(WINDOWS.map(async (window) => {
      const label = window.length ? ` ${window.join(" ")}` : "";
      const [validated, pushed] = await Promise.all([
        runCli(["validate", path, ...window]),
        runCli(["push", path, "--dry-run", "--json", ...window]),
      ]);
      assertEndedWithReason(validated, `validate ${file}${label}`, false);
      assertEndedWithReason(pushed, `push --dry-run --json ${file}${label}`, true);
    }));
  });
}
