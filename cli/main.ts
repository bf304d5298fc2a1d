#!/usr/bin/env node
/**
 * The `events` command: only the command table. Each command is a plain async function in
 * cli/commands/; they throw typed errors (cli/errors.ts) and only this file turns them into exit
 * codes.
 */
import process from "node:process";
import { Command, CommanderError, Option } from "commander";
import { PLATFORMS } from "../shared/event-schema.ts";
import { SCOPES } from "../shared/api-schemas.ts";
import { KEY_STATUSES, RATE_LIMIT_BOUNDS } from "../shared/key-schemas.ts";
import { CliError, EXIT } from "./errors.ts";
import { processTerminal, red, type Terminal } from "./output/terminal.ts";
import {
  apiSettings,
  integerOption,
  type RawReadOptions,
  readSettings,
  sendSettings,
} from "./settings.ts";
import { push } from "./commands/push.ts";
import { validate } from "./commands/validate.ts";
import { createKey, listKeys, setRateLimit } from "./commands/admin-keys.ts";
import { reviewKey } from "./commands/admin-review.ts";
import { decideKey } from "./commands/admin-decide.ts";
import { VERSION } from "./version.ts";
import { isCsvCheckWorker, serveCsvChecks } from "./readers/csv-check-worker.ts";

const INTERNAL_ERROR = 70;

const HELP_FOOTER = `
Inputs: a file (.ics, .csv, .json, .ndjson), an http(s) or webcal URL, or - for stdin.

Environment:
  EVENTS_API_URL   service URL (default http://localhost:8000); --api-url wins
  EVENTS_API_KEY   API key; --api-key wins. The key is never printed.
  ADMIN_API_KEY    the operator key, for admin commands (before EVENTS_API_KEY)
  NO_COLOR         set to anything: no colours, even on a terminal

Exit codes:
  0  all records accepted (or valid, for validate)
  1  some records invalid or rejected (the summary lists each with its location)
  2  usage or input error (bad option, unreadable file, unknown format)
  3  authentication or permission error (missing, malformed, unknown or revoked key; missing scope)
  4  gave up after retries (server unreachable or failing); pushing again is safe
  70 internal error (a bug: please report it)
`;

interface GlobalOptions {
  apiUrl?: string;
  apiKey?: string;
  json?: boolean;
  verbose?: boolean;
  timeout?: string;
}

function readingOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--format <format>", "input format when the name does not tell").choices([
        "ics",
        "csv",
        "json",
        "ndjson",
      ]),
    )
    .addOption(
      new Option(
        "--platform <platform>",
        "platform of records that name none (ICS: default ics_feed)",
      ).choices([...PLATFORMS]),
    )
    .option(
      "--source-url <url>",
      "source_url of records that have none (default for a URL input: the feed URL)",
    )
    .option("--timezone <zone>", "IANA zone for times without offset and records without timezone")
    .option("--horizon <days>", "ICS: expand recurring events this many days ahead", "365")
    .option(
      "--from <date>",
      "start of the window: ICS occurrences from then on; --sync removes nothing before it " +
        "(default: now)",
    )
    .option(
      "--map <name=field>",
      "fill a field from a CSV column or JSON field (repeatable, also to fill several fields " +
        "from one; name= drops it)",
      collect,
      [],
    )
    .option(
      "--id-from <fields>",
      "make external_id from these fields (comma-separated) for records without one",
    )
    .option("--delimiter <char>", "CSV: , or ; or | or tab (default: found from the header)")
    .option(
      "--calendar <name>",
      "a name for this feed: its external_ids start with NAME/ and --sync keeps to them",
    )
    .option(
      "--max-invalid <n|p%>",
      "succeed (exit 0) with up to this many invalid or rejected records, or this share of them",
    )
    .option("--strict", "send nothing when more records are invalid than --max-invalid allows");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Builds the command table; each action hands checked settings to a command function. */
export function buildProgram(terminal: Terminal, env: Record<string, string | undefined>): Command {
  const program = new Command("events")
    .description(
      "Push technology events (ICS, CSV, JSON) to the events service, check feeds offline, and review contributors' keys.",
    )
    .version(VERSION)
    .option("--api-url <url>", "service URL (env EVENTS_API_URL)")
    .option("--api-key <key>", "API key (env EVENTS_API_KEY); admin commands take the operator key")
    .option("--json", "print one machine-readable JSON result on stdout (errors too)")
    .option("--verbose", "print every problem as it comes and every figure at the end")
    .option("--timeout <seconds>", "timeout of each HTTP request", "30")
    .addHelpText("after", HELP_FOOTER)
    .showHelpAfterError("(run events --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => terminal.out(text),
      writeErr: (text) => terminal.err(text),
    });
  const globals = <T = Record<never, never>>(command: Command) =>
    command.optsWithGlobals() as GlobalOptions & T;

  readingOptions(
    program.command("push <input>")
      .description("validate and send the events of a feed in batches")
      .option("--batch-size <n>", "events per request (1-100)", "100")
      .option(
        "--max-retries <n>",
        "retries of a batch on 429, 5xx, timeouts and dropped connections",
        "5",
      )
      .option("--dry-run", "validate and show what would be sent (and removed); send nothing")
      .option(
        "--sync",
        "afterwards remove your events of the feed's scope that the feed no longer holds",
      )
      .option("--force", "with --sync: remove even more than half of the events in scope"),
  ).action(async (input: string, _options: unknown, command: Command) => {
    const o = globals<
      RawReadOptions & {
        batchSize?: string;
        maxRetries?: string;
        dryRun?: boolean;
        sync?: boolean;
        force?: boolean;
      }
    >(command);
    const read = readSettings(o, env, import.meta.url);
    const send = sendSettings(o);
    const api = o.dryRun ? null : apiSettings(o, env);
    // Listing what --sync would remove needs the key even in a dry run.
    const syncApi = api ?? (o.sync ? apiSettings(o, env) : null);
    await push(input, {
      read,
      api,
      syncApi,
      ...send,
      sync: Boolean(o.sync),
      force: Boolean(o.force),
    }, terminal);
  });

  readingOptions(
    program.command("validate <input>").description(
      "check a feed against the event schema, offline",
    ),
  ).action(async (input: string, _options: unknown, command: Command) => {
    await validate(
      input,
      readSettings(globals<RawReadOptions>(command), env, import.meta.url),
      terminal,
    );
  });

  const admin = program.command("admin").description("operator commands (take the operator key)");
  admin.command("keys").description("list API keys")
    .addOption(
      new Option("--status <status>", "only keys in this state").choices(KEY_STATUSES),
    )
    .action(async (_options: unknown, command: Command) => {
      // commander has checked --status against KEY_STATUSES (.choices above).
      const o = globals<{ status?: (typeof KEY_STATUSES)[number] }>(command);
      await listKeys(apiSettings(o, env, { admin: true }), {
        status: o.status,
        json: Boolean(o.json),
      }, terminal);
    });
  admin.command("review <key>").description(
    "show a key and its first batch, by id or display prefix",
  )
    .action(async (ref: string, _options: unknown, command: Command) => {
      const o = globals(command);
      await reviewKey(
        apiSettings(o, env, { admin: true }),
        ref,
        { json: Boolean(o.json) },
        terminal,
      );
    });
  for (const decision of ["trust", "untrust", "revoke"] as const) {
    const what = {
      trust: "mark a key trusted: its events enter AI search",
      untrust: "withdraw trust: its events leave AI search",
      revoke: "revoke a key: it fails with 401 from then on",
    }[decision];
    admin.command(`${decision} <key>`).description(what)
      .action(async (ref: string, _options: unknown, command: Command) => {
        const o = globals(command);
        await decideKey(apiSettings(o, env, { admin: true }), decision, ref, {
          json: Boolean(o.json),
        }, terminal);
      });
  }
  admin.command("create-key").description("create an API key; the key is shown once")
    .requiredOption("--contributor <name>", "who the key is for")
    .requiredOption("--name <name>", "what the key is for")
    .addOption(
      new Option("--scope <scope>", "scope (repeatable)").choices([...SCOPES]).argParser(
        collectScope,
      ).default([] as string[]),
    )
    .option("--rate-limit <n>", "requests per minute")
    .action(async (_options: unknown, command: Command) => {
      const o = globals<{ contributor: string; name: string; scope: string[]; rateLimit?: string }>(
        command,
      );
      await createKey(apiSettings(o, env, { admin: true }), {
        contributor: o.contributor,
        name: o.name,
        scopes: o.scope.length > 0 ? o.scope : ["events:write"],
        rateLimit: o.rateLimit === undefined
          ? undefined
          : rateLimitOption("--rate-limit", o.rateLimit),
        json: Boolean(o.json),
      }, terminal);
    });
  admin.command("set-limit <key> <perMinute>").description(
    "change a key's rate limit (requests per minute)",
  )
    .action(async (ref: string, perMinute: string, _options: unknown, command: Command) => {
      const o = globals(command);
      const limit = rateLimitOption("set-limit", perMinute);
      await setRateLimit(apiSettings(o, env, { admin: true }), ref, limit, {
        json: Boolean(o.json),
      }, terminal);
    });
  return program;
}

function rateLimitOption(name: string, value: string): number {
  return integerOption(name, value, RATE_LIMIT_BOUNDS.min, RATE_LIMIT_BOUNDS.max);
}

function collectScope(value: string, previous: string[] = []): string[] {
  if (!(SCOPES as readonly string[]).includes(value)) {
    throw new CommanderError(
      EXIT.usage,
      "commander.invalidArgument",
      `error: scope must be one of ${SCOPES.join(", ")}`,
    );
  }
  return [...previous, value];
}

/** The one JSON object a failed command prints with --json. */
function jsonError(exitCode: number, message: string, kind: string): string {
  return JSON.stringify(
    { ok: false, exit_code: exitCode, error: message, error_kind: kind },
    null,
    2,
  );
}

/** Runs the CLI on `argv` and returns the exit code. */
export async function main(
  argv: string[],
  terminal: Terminal,
  env: Record<string, string | undefined>,
): Promise<number> {
  const wantsJson = argv.includes("--json");
  const verbose = argv.includes("--verbose");
  const errorLine = (message: string) =>
    terminal.err(`${red("error:", terminal.stderrColour)} ${message}`);
  try {
    await buildProgram(terminal, env).parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
        return EXIT.ok;
      }
      // Commander has printed its message on stderr already.
      if (wantsJson) {
        terminal.out(jsonError(EXIT.usage, error.message.replace(/^error: /, ""), "usage"));
      }
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      if (!error.summaryPrinted && wantsJson) {
        terminal.out(jsonError(error.exitCode, error.message, error.kind));
      }
      if (!wantsJson || !error.summaryPrinted) errorLine(error.message);
      return error.exitCode;
    }
    // A bug: its own text means nothing to the user, unless they ask for it.
    const message = "the CLI failed unexpectedly (a bug). Please report it with the command " +
      "you ran" + (verbose ? "" : "; --verbose shows the details");
    if (wantsJson) {
      terminal.out(jsonError(INTERNAL_ERROR, `internal error: ${message}`, "internal"));
    }
    terminal.err(`internal error: ${message}`);
    if (verbose) terminal.err((error as Error)?.stack ?? String(error));
    return INTERNAL_ERROR;
  }
}

if (isCsvCheckWorker()) {
  // This file also runs as the worker threads that check large CSV inputs.
  serveCsvChecks();
} else if (import.meta.main ?? true) {
  const code = await main(process.argv.slice(2), processTerminal(process.env), process.env);
  process.exitCode = code;
  // Nothing should keep the process alive now; if something does, do not hang on it.
  setTimeout(() => process.exit(code), 2000).unref();
}
