/** Runs one of the project's npm scripts as an operator would, from the repository root. */

const ROOT = new URL("../../../", import.meta.url).pathname;

/** What a finished script printed and how it exited. */
export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Starts `npm run -s <name> -- ...args` with `env` added to this process's environment. */
export function startNpmScript(
  name: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<ScriptResult> {
  const child = new Deno.Command("npm", {
    args: ["run", "-s", name, "--", ...(options.args ?? [])],
    cwd: ROOT,
    env: options.env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return child.output().then((out) => ({
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  }));
}
