/**
 * What a failure to talk to the database means: a setting to correct at start (wrong password,
 * unknown database, nothing listening), or a database that is away for a while (a restart, a
 * failover) so that a request should get a 503 and be retried.
 */

// SQLSTATE classes and codes: 08 connection exception; 57P01 admin_shutdown, 57P02
// crash_shutdown, 57P03 cannot_connect_now; 53300 too_many_connections.
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
// postgres.js's own connection error codes, and the socket errors it passes on.
const UNAVAILABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

function codeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null || !("code" in err)) return undefined;
  const code = (err as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** Whether `err` says the database cannot be reached right now (restart, failover, network). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (code === undefined) return false;
  return UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08");
}

// A transaction that met another (deadlock, serialization failure, lock timeout) or an event
// deleted while it was read for a link: the same work succeeds when tried again.
const TRANSIENT_SQLSTATES = new Set(["40001", "40P01", "55P03", "23503"]);

/** Whether work that failed with `err` may succeed as it is when tried again later. */
export function isTransientFailure(err: unknown): boolean {
  const code = codeOf(err);
  return isDatabaseUnavailable(err) || (code !== undefined && TRANSIENT_SQLSTATES.has(code));
}

/** The parts of a PostgreSQL URL that a message may show: never the password. */
function describeUrl(databaseUrl: string): { user: string; host: string; database: string } {
  try {
    const u = new URL(databaseUrl);
    return {
      user: decodeURIComponent(u.username) || "postgres",
      host: `${u.hostname || "localhost"}:${u.port || "5432"}`,
      database: decodeURIComponent(u.pathname.slice(1)) || decodeURIComponent(u.username),
    };
  } catch {
    return { user: "?", host: "?", database: "?" };
  }
}

/** One line that says why the first connection failed and which setting to change. */
export function connectFailureMessage(err: unknown, databaseUrl: string): string {
  const { user, host, database } = describeUrl(databaseUrl);
  const code = codeOf(err);
  const detail = err instanceof Error ? err.message.split("\n")[0] : String(err);
  switch (code) {
    case "28P01":
      return `Cannot start: PostgreSQL at ${host} refused the password for user "${user}": ` +
        "correct the password in DATABASE_URL";
    case "28000":
      return `Cannot start: PostgreSQL at ${host} does not let user "${user}" in (${detail}): ` +
        "correct the user in DATABASE_URL, or allow it in the server's pg_hba.conf";
    case "3D000":
      return `Cannot start: there is no database "${database}" on ${host}: create it ` +
        `(createdb ${database}) or correct the database name in DATABASE_URL`;
    case "ECONNREFUSED":
      return `Cannot start: nothing accepts connections at ${host}: start PostgreSQL there, or ` +
        "correct the host and port in DATABASE_URL";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `Cannot start: the host of DATABASE_URL (${host}) cannot be found: correct it`;
    case "CONNECT_TIMEOUT":
      return `Cannot start: PostgreSQL at ${host} did not answer in time: check that it runs ` +
        "and that the host and port in DATABASE_URL are right";
    case "57P03":
      return `Cannot start: PostgreSQL at ${host} is starting up or shutting down: start again ` +
        "once it is ready";
    default:
      return `Cannot start: cannot connect to PostgreSQL at ${host} (${detail}): check DATABASE_URL`;
  }
}
