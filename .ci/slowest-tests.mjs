// Prints the slowest tests of a `deno test --junit-path` report: node .ci/slowest-tests.mjs FILE [N]
// Steps (reported as "test > step") are left out: their time is part of their test's.
import { readFileSync } from "node:fs";

const [file, count = "10"] = process.argv.slice(2);
if (!file) {
  console.error("Usage: node .ci/slowest-tests.mjs <junit.xml> [how many]");
  process.exit(2);
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescape = (s) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]);

const xml = readFileSync(file, "utf8");
const tests = [];
for (const suite of xml.matchAll(/<testsuite [^>]*>([\s\S]*?)<\/testsuite>/g)) {
  const cases = [
    ...suite[1].matchAll(/<testcase name="([^"]*)" classname="([^"]*)" time="([\d.]+)"/g),
  ]
    .map((m) => ({ name: unescape(m[1]), file: unescape(m[2]), seconds: Number(m[3]) }));
  const names = new Set(cases.map((c) => c.name));
  const isStep = (name) =>
    [...name.matchAll(/ > /g)].some((m) => names.has(name.slice(0, m.index)));
  tests.push(...cases.filter((c) => !isStep(c.name)));
}
tests.sort((a, b) => b.seconds - a.seconds);
for (const t of tests.slice(0, Number(count))) {
  const where = t.file.replace(/^(\.\.\/)*|^\.\//g, "");
  console.log(`${t.seconds.toFixed(1).padStart(7)} s  ${where}  ${t.name}`);
}
