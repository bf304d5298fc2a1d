/** The server as a real child process (`deno run server/main.ts`), as an operator starts it. */
const DENO = new URL("../../../node_modules/.bin/deno", import.meta.url).pathname;
const MAIN = new URL("../../../server/main.ts", import.meta.url).pathname;

/** What the process wrote on each stream. */
export interface ProcessOutput {
  stdout: string;
  stderr: string;
}

/** A running server process. */
export interface ServerProcess {
  url: string;
  /** What the process has written so far. */
  output(): ProcessOutput;
  /** Stops the process with SIGTERM, waits for it to exit, and gives all it wrote. */
  stop(): Promise<ProcessOutput>;
  /** Kills the process with SIGKILL (no chance to clean up) and waits for it to exit. */
  kill(): Promise<ProcessOutput>;
}

/** Reads `stream` to its end into `into.text`, so the child never blocks on a full pipe. */
async function collect(stream: ReadableStream<Uint8Array>, into: { text: string }) {
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) into.text += chunk;
}

/** Starts `server/main.ts` with `env` and waits for its "Listening on <url>" line. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", MAIN],
    env: { PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = { text: "" };
  const stderr = { text: "" };
  const drained = Promise.all([collect(child.stdout, stdout), collect(child.stderr, stderr)]);
  let url: string | undefined;
  // Start-up takes seconds at most; the process ending first ends the wait.
  const exited = child.status.then(() => false);
  for (let i = 0; i < 1_200 && url === undefined; i++) {
    url = /^Listening on (http:\/\/[^\s]+)/m.exec(stdout.text)?.[1];
    if (url === undefined && !await Promise.race([exited, delay(50)])) break;
  }
  if (url === undefined) {
    try {
      child.kill("SIGTERM");
    } catch { /* it has exited already */ }
    await child.status;
    await drained;
    throw new Error(`Cannot start the server process: ${stderr.text}`);
  }
  return {
    url,
    output: () => ({ stdout: stdout.text, stderr: stderr.text }),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      return { stdout: stdout.text, stderr: stderr.text };
    },
    kill: async () => {
      child.kill("SIGKILL");
      await child.status;
      await drained;
      return { stdout: stdout.text, stderr: stderr.text };
    },
  };
}

function delay(ms: number): Promise<true> {
  return new Promise((resolve) => setTimeout(() => resolve(true), ms));
}
