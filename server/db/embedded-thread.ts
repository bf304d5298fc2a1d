/**
 * The embedded database (PGlite) on a thread of its own (embedded-thread-worker.ts), served on a
 * loopback socket that postgres.js connects to, as to a PostgreSQL server. PGlite runs each
 * statement on the thread that holds it: on the server's thread, a statement and the server's
 * JavaScript (parsing and checking a batch, detecting its duplicates, answering a read) took
 * turns; on a thread of its own, they run at once on two cores, as with a PostgreSQL server.
 *
 * A thread that fails outside a request (PGlite aborting) ends the process, as it did when PGlite
 * ran on the server's thread: a supervisor starts it again on the data directory, which recovers.
 */

/** What the server's thread asks of the database's. */
type EmbeddedAsk = { kind: "open"; dataDir: string } | { kind: "snapshot" } | { kind: "close" };

/** A request, numbered to match its reply. */
export type EmbeddedRequest = EmbeddedAsk & { id: number };

/** The database thread's answer to request `id`. */
export type EmbeddedReply =
  & { id: number }
  & ({ conn: string } | { tar: ArrayBuffer } | { error: string } | Record<never, never>);

/** The database's thread, open on a data directory. */
export class EmbeddedThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, PromiseWithResolvers<EmbeddedReply>>();
  #nextId = 1;
  /** Where the database answers: `host:port`. */
  conn = "";

  private constructor() {
    this.#worker = new Worker(new URL("./embedded-thread-worker.ts", import.meta.url).href, {
      type: "module",
    });
    this.#worker.onmessage = (event: MessageEvent<EmbeddedReply>) => {
      const pending = this.#pending.get(event.data.id);
      this.#pending.delete(event.data.id);
      pending?.resolve(event.data);
    };
  }

  /** Starts the thread and opens the database in `dataDir` (created when missing). */
  static async open(dataDir: string): Promise<EmbeddedThread> {
    const thread = new EmbeddedThread();
    const reply = await thread.#ask({ kind: "open", dataDir }).catch((err) => {
      thread.#worker.terminate();
      throw err;
    });
    if ("conn" in reply) thread.conn = reply.conn;
    return thread;
  }

  /** An uncompressed tar of the data directory, taken between two statements. */
  async snapshot(): Promise<Blob> {
    const reply = await this.#ask({ kind: "snapshot" });
    return new Blob("tar" in reply ? [reply.tar] : []);
  }

  /** Closes the database and ends the thread. */
  async close(): Promise<void> {
    try {
      await this.#ask({ kind: "close" });
    } finally {
      this.#worker.terminate();
    }
  }

  async #ask(request: EmbeddedAsk): Promise<EmbeddedReply> {
    const id = this.#nextId++;
    const pending = Promise.withResolvers<EmbeddedReply>();
    this.#pending.set(id, pending);
    this.#worker.postMessage({ ...request, id } satisfies EmbeddedRequest);
    const reply = await pending.promise;
    if ("error" in reply) throw new Error(reply.error);
    return reply;
  }
}
