/**
 * A second line of defence against the postgres.js 3.4.9 defect that ends the process when
 * PostgreSQL restarts (porsager/postgres#1154, #1208). The first is the mend applied at install by
 * scripts/patch-postgres-driver.mjs. Should it be missing (an install with --ignore-scripts), this
 * says so at start, and keeps that one uncaught TypeError, thrown from a driver timer with no
 * caller to reject, from ending the process; every other uncaught error still does.
 */

/** The comment the install-time mend leaves in the driver. */
const MEND_MARK = "/* tech-events: null-socket write guard */";

let installed = false;

/** Whether `error` is the driver's write to a closed connection. */
export function isDriverNullWrite(error: unknown): boolean {
  return error instanceof TypeError && /\(reading 'write'\)/.test(error.message) &&
    /postgres\/(cjs\/)?src\/connection\.js/.test(error.stack ?? "");
}

/** Installs the guard once per process, and warns when the driver lacks the mend. */
export async function guardDatabaseDriver(log = (line: string) => console.error(line)) {
  if (installed) return;
  installed = true;
  globalThis.addEventListener("error", (event) => {
    if (!isDriverNullWrite(event.error)) return;
    event.preventDefault();
    log("postgres.js wrote to a closed connection (porsager/postgres#1154); carrying on");
  });
  if (!(await driverIsMended())) {
    log(
      "postgres.js lacks its restart mend (scripts/patch-postgres-driver.mjs did not run): " +
        "a PostgreSQL restart can hang requests; run npm ci without --ignore-scripts",
    );
  }
}

async function driverIsMended(): Promise<boolean> {
  try {
    const index = new URL(import.meta.resolve("postgres"));
    const source = await Deno.readTextFile(new URL("connection.js", index));
    return source.includes(MEND_MARK);
  } catch {
    // Without read permission or in another layout, say nothing rather than guess.
    return true;
  }
}
