/**
 * The closed set of failures a command may throw. Commands never exit the process: only the entry
 * (cli/main.ts) turns these into exit codes, so every code has exactly one meaning.
 */

/** Exit codes, as documented in `events --help` and docs/cli.md. */
export const EXIT = {
  ok: 0,
  rejected: 1,
  usage: 2,
  auth: 3,
  gaveUp: 4,
} as const;
export type ExitCode = typeof EXIT[keyof typeof EXIT];

/** Base class: a failure with a message meant for the user and the exit code it maps to. */
export abstract class CliError extends Error {
  /** The exit code this kind of failure maps to. */
  abstract readonly exitCode: ExitCode;
  /** A word for the kind of failure, for --json (`error_kind`). */
  abstract readonly kind: string;
  /** Set once the command has printed its own summary (with --json, the only stdout JSON). */
  summaryPrinted = false;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Wrong flags or arguments (exit 2). */
export class UsageError extends CliError {
  readonly exitCode = EXIT.usage;
  readonly kind = "usage";
}

/** The input cannot be read at all: missing file, unreachable feed URL, unknown format (exit 2). */
export class InputError extends CliError {
  readonly exitCode = EXIT.usage;
  readonly kind = "input";
}

/** The key is missing, malformed, unknown, revoked, or lacks the scope (exit 3). */
export class AuthError extends CliError {
  readonly exitCode = EXIT.auth;
  readonly kind = "auth";
}

/** Retries ran out, or the server answered something no retry can fix (exit 4). */
export class GaveUpError extends CliError {
  readonly exitCode = EXIT.gaveUp;
  readonly kind = "gave_up";
}

/** `--strict` met an invalid record, or an operator request was refused (exit 1). */
export class RejectedError extends CliError {
  readonly exitCode = EXIT.rejected;
  readonly kind = "rejected";
}
