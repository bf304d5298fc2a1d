/**
 * The server's problem log: one JSON object per line on stderr, so that a log shipper reading
 * the stream never meets a line it cannot parse. Request lines are middleware/request-log.ts's.
 */

/** What a problem line says: its level, an error (written as its stack), and fields to find it. */
export type ProblemEntry = { level: "error" | "warn"; error?: unknown } & Record<string, unknown>;

/** Writes one JSON line: the time, the level, the given fields, then the error. */
export function logProblem(entry: ProblemEntry): void {
  const { level, error, ...fields } = entry;
  console.error(JSON.stringify({
    time: new Date().toISOString(),
    level,
    ...fields,
    ...(error === undefined ? {} : { error: describe(error) }),
  }));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}
