/**
 * `npm start` as an operator runs it: the real command, its real process tree (npm, deno task,
 * deno), its output, and signals sent to the npm process.
 */
const ROOT = new URL("../../../", import.meta.url).pathname;

/** A started `npm start` (optionally as PID 1 of a new PID namespace, as in a container). */
export interface NpmStart {
  /** The process to signal: npm itself. */
  pid: number;
  /** Resolves with the exit code once the process tree is gone. */
  status: Promise<Deno.CommandStatus>;
  /** Everything printed so far, stdout and stderr interleaved as they came. */
  output(): string;
  /** Waits until the server prints its URL; rejects if the process ends first. */
  listening(): Promise<string>;
  /** Ends the whole tree (SIGKILL) if it is still running: for test clean-up. */
  kill(): Promise<void>;
}

export interface NpmStartOptions {
  env: Record<string, string>;
  /** Run npm as PID 1 of a new PID namespace (`unshare --pid --fork`), as in a container. */
  asPid1?: boolean;
}

/** Whether this machine lets the tests run a process as PID 1 of its own PID namespace. */
export async function canRunAsPid1(): Promise<boolean> {
  try {
    const out = await new Deno.Command("unshare", {
      args: ["--pid", "--fork", "--kill-child", "sh", "-c", "echo $$"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return out.success && new TextDecoder().decode(out.stdout).trim() === "1";
  } catch {
    return false;
  }
}

/** Starts `npm start` in the repository with `env` added to the environment. */
export async function npmStart(options: NpmStartOptions): Promise<NpmStart> {
  const npm = ["npm", "start"];
  const command = options.asPid1 ? "unshare" : "npm";
  const args = options.asPid1 ? ["--pid", "--fork", "--kill-child", ...npm] : ["start"];
  const child = new Deno.Command(command, {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", LOG_REQUESTS: "false", HOST: "127.0.0.1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const changed = new EventTarget();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      changed.dispatchEvent(new Event("change"));
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const status = drained.then(() => child.status);
  let ended = false;
  status.then(() => {
    ended = true;
    changed.dispatchEvent(new Event("change"));
  });
  return {
    pid: options.asPid1 ? await npmPidUnder(child.pid) : child.pid,
    status,
    output: () => text,
    listening: () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = /^Listening on (http:\/\/\S+)/m.exec(text);
          if (match) resolve(match[1].replace("localhost", "127.0.0.1"));
          else if (ended) reject(new Error(`npm start ended before listening:\n${text}`));
          else return;
          changed.removeEventListener("change", check);
        };
        changed.addEventListener("change", check);
        check();
      }),
    kill: async () => {
      if (ended) return;
      for (const p of await treeOf(child.pid)) {
        try {
          Deno.kill(p, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await status;
    },
  };
}

/** The PID (in this namespace) of the npm process that unshare forked. */
async function npmPidUnder(unsharePid: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const children = await childrenOf(unsharePid);
    if (children.length > 0) return children[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`unshare (${unsharePid}) has no child process`);
}

async function childrenOf(pid: number): Promise<number[]> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`);
    return text.trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** `pid` and every descendant, deepest first. */
async function treeOf(pid: number): Promise<number[]> {
  const below: number[] = [];
  for (const child of await childrenOf(pid)) below.push(...await treeOf(child));
  return [...below, pid];
}

/** The lines the service printed, without npm's and deno task's own banner lines. */
export function serviceLines(output: string): string[] {
  return output.split("\n").map((l) => l.trimEnd()).filter((line) =>
    line !== "" && !line.startsWith("npm ") && !line.startsWith("> ") &&
    !/^Task start /.test(line)
  );
}
