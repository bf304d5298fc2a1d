/** The embedding worker as its own process (`deno task worker`), as an operator runs it. */
const DENO = new URL("../../../node_modules/.bin/deno", import.meta.url).pathname;
const WORKER = new URL("../../../server/embeddings/worker-main.ts", import.meta.url).pathname;

/** A running worker process. */
export interface WorkerProcess {
  /** Whether the process has ended (by itself: it should not). */
  exited(): boolean;
  /** Stops the process with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the worker with `env` and waits for its start-up line. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", WORKER],
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let ended = false;
  const status = child.status.then((s) => {
    ended = true;
    return s;
  });
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/Embedding worker started/.test(seen)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`Cannot start the worker process: ${seen}\n${await stderr}`);
    seen += value;
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    exited: () => ended,
    stop: async () => {
      if (!ended) child.kill("SIGTERM");
      await status;
      await drained;
      await stderr;
    },
  };
}
