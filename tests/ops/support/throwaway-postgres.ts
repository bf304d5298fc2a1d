/**
 * A PostgreSQL 15 cluster of the test's own, in a temporary directory, that the test may restart
 * or stop at will: the machine's main cluster is shared by every engineer's tests and is never
 * touched. Needs the PostgreSQL 15 binaries and root (the cluster runs as the postgres user).
 */
const BIN = "/usr/lib/postgresql/15/bin";
const PASSWORD = "restart-test";

/** A running throwaway cluster. */
export interface ThrowawayPostgres {
  /** postgres://… of its `postgres` database, with password. */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: disconnects every client, as an operator's restart does. */
  restart(): Promise<void>;
  /** Stops the cluster and deletes its directory. */
  destroy(): Promise<void>;
}

async function run(args: string[], user = "postgres"): Promise<string> {
  const out = await new Deno.Command("runuser", {
    args: ["-u", user, "--", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`Cannot run ${args.join(" ")}: ${text}`);
  return text;
}

/** Whether this machine can run a throwaway cluster (binaries present, running as root). */
export async function canRunThrowawayPostgres(): Promise<boolean> {
  try {
    await Deno.stat(`${BIN}/initdb`);
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** Creates and starts a cluster on a free port, with password authentication over TCP. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = await Deno.makeTempDir({ prefix: "events-pg-" });
  await Deno.chmod(dir, 0o777);
  const data = `${dir}/data`;
  await Deno.writeTextFile(`${dir}/password`, PASSWORD);
  await Deno.chmod(`${dir}/password`, 0o644);
  await run([
    `${BIN}/initdb`,
    "-D",
    data,
    "-U",
    "postgres",
    `--pwfile=${dir}/password`,
    "--auth-host=scram-sha-256",
    "--auth-local=trust",
    "--no-sync",
  ]);
  const port = freePort();
  const ctl = (...args: string[]) => run([`${BIN}/pg_ctl`, "-D", data, "-w", "-t", "60", ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await ctl("-o", options, "-l", `${dir}/log`, "start");
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      await ctl("-m", "fast", "-o", options, "-l", `${dir}/log`, "restart");
    },
    destroy: async () => {
      await ctl("-m", "immediate", "stop").catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}
