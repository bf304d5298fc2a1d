/** Groups problems that say the same thing, so 365 alike lines become one with a count. */
import type { Problem } from "../send/problem.ts";

/** Problems alike but for their location and the values they quote. */
export interface ProblemGroup {
  kind: Problem["kind"];
  /** The first problem's own words. */
  message: string;
  count: number;
  /** Where the first few occurred. */
  first_locations: string[];
}

const SHOWN_LOCATIONS = 3;

/**
 * What makes two problems alike: the kind and the message with its quoted values, numbers and a
 * leading subject ("uid@host#20240101: ...") taken out.
 */
function groupKey(problem: Problem): string {
  const message = problem.message
    .replace(/^[^\s:]+: /, "")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, "#");
  return `${problem.kind}\u0000${message}`;
}

/** The groups, in the order their first problem came. */
export function groupProblems(problems: Problem[]): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  for (const problem of problems) {
    const key = groupKey(problem);
    const group = groups.get(key);
    if (group) {
      group.count++;
      if (group.first_locations.length < SHOWN_LOCATIONS) {
        group.first_locations.push(problem.location);
      }
      continue;
    }
    groups.set(key, {
      kind: problem.kind,
      message: problem.message,
      count: 1,
      first_locations: [problem.location],
    });
  }
  return [...groups.values()];
}

const LABELS: Record<Problem["kind"], string> = {
  invalid: "invalid",
  rejected: "rejected",
  skipped: "left out",
  warning: "warning",
  not_sent: "not sent",
};

/** One problem as a line for stderr. */
export function problemLine(problem: Problem): string {
  return `${problem.location}: ${LABELS[problem.kind]}: ${problem.message}`;
}

/** "feed.csv: lines 2, 3, 4" when the locations are lines of one file, else them as they are. */
function places(locations: string[]): string {
  const parts = locations.map((l) => /^(.*):(\d+(?: \(index \d+\))?)$/.exec(l));
  const file = parts[0]?.[1];
  if (file === undefined || parts.some((p) => p === null || p[1] !== file)) {
    return locations.join(", ");
  }
  return `${file}: line${parts.length > 1 ? "s" : ""} ${parts.map((p) => p![2]).join(", ")}`;
}

/** One group as a line: a single problem as itself, several with their count and first places. */
export function groupLine(group: ProblemGroup): string {
  if (group.count === 1) {
    return `${group.first_locations[0]}: ${LABELS[group.kind]}: ${group.message}`;
  }
  const more = group.count > group.first_locations.length ? ", …" : "";
  return `${LABELS[group.kind]}, ${group.count} records: ${group.message} ` +
    `(first at ${places(group.first_locations)}${more})`;
}
