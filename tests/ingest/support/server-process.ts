/** The server as a real child process (`deno run server/main.ts`), as an operator starts it. */
const DENO = new URL("../../../node_modules/.bin/deno", import.meta.url).pathname;
const MAIN = new URL("../../../server/main.ts", import.meta.url).pathname;

/** A running server process. */
export interface ServerProcess {
  url: string;
  /** Stops the process with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `server/main.ts` with `env` and waits for its "Listening on <url>" line. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", MAIN],
    env: { PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let url: string | undefined;
  let seen = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
    const match = /^Listening on (http:\/\/[^\s]+)/m.exec(seen);
    if (match) {
      url = match[1];
      break;
    }
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  if (url === undefined) {
    await child.status;
    throw new Error(`Cannot start the server process: ${await stderr}`);
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      await stderr;
    },
  };
}
