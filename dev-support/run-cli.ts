/** Runs the built `events` CLI as a child process, as a user or a CI job would. */

const ROOT = new URL("../", import.meta.url).pathname;
export const BUNDLE = `${ROOT}packages/cli/dist/events.mjs`;

/** What a run printed and how it ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** stdout parsed as JSON (for --json runs). */
  // deno-lint-ignore no-explicit-any
  json(): any;
}

let built: Promise<void> | undefined;

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "dist") {
      newest = Math.max(newest, await newestSource(path));
    } else if (entry.isFile && entry.name.endsWith(".ts")) {
      newest = Math.max(newest, (await Deno.stat(path)).mtime?.getTime() ?? 0);
    }
  }
  return newest;
}

/** Builds packages/cli/dist/events.mjs when it is missing or older than a source file. */
export function ensureBuilt(): Promise<void> {
  built ??= (async () => {
    let bundleTime = 0;
    try {
      bundleTime = (await Deno.stat(BUNDLE)).mtime?.getTime() ?? 0;
    } catch {
      // Not built yet.
    }
    const sources = Math.max(await newestSource(`${ROOT}cli`), await newestSource(`${ROOT}shared`));
    if (bundleTime >= sources) return;
    const result = await new Deno.Command("node", {
      args: [`${ROOT}scripts/build-cli.mjs`],
      cwd: ROOT,
    }).output();
    if (!result.success) {
      throw new Error(`Cannot build the CLI: ${new TextDecoder().decode(result.stderr)}`);
    }
  })();
  return built;
}

/** Runs `node packages/cli/dist/events.mjs ...args`; `stdin` is piped in when given. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  await ensureBuilt();
  const started = performance.now();
  const child = new Deno.Command("node", {
    args: [BUNDLE, ...args],
    cwd: ROOT,
    // A clean environment: no EVENTS_* from the developer's shell leaks into a test.
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  const output = await child.output();
  clearTimeout(timer);
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  return {
    code: output.code,
    stdout,
    stderr,
    ms: performance.now() - started,
    json: () => {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${output.code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}
