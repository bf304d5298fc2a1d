/**
 * The embedded database's connection: an in-process stand-in for the TCP socket postgres.js
 * reads and writes (its `socket` option), which hands the driver's wire-protocol bytes to PGlite
 * and PGlite's answer back. A loopback TCP server did the same with a copy, a lock hop and a
 * file-system sync per protocol message; here a whole write (a statement's Parse, Bind, Describe,
 * Execute and Sync) runs in one turn of PGlite's lock, and nothing leaves the process.
 */
import { EventEmitter } from "node:events";
import { Buffer } from "node:buffer";
import type { PGlite } from "@electric-sql/pglite";

// The first message of a connection has no type byte: a length, then a request code.
const PROTOCOL_3 = 196608;
const CANCEL_REQUEST = 80877102;
const SSL_REQUEST = 80877103;

/**
 * One connection of postgres.js to PGlite. Writes run in order, each under PGlite's lock (the one
 * a snapshot takes), and each answer is emitted as one `data` event.
 */
export class InProcessSocket extends EventEmitter {
  readyState: "open" | "closed" = "open";
  #pglite: PGlite;
  #startupTaken = false;
  #started = false;
  #pending: Uint8Array = new Uint8Array(0);
  #turn: Promise<void> = Promise.resolve();

  constructor(pglite: PGlite) {
    super();
    this.#pglite = pglite;
  }

  /** Takes bytes from the driver; always accepts them (there is no buffer to fill). */
  write(chunk: Uint8Array, done?: (error?: Error) => void): boolean {
    if (this.readyState === "closed") {
      queueMicrotask(() => done?.(new Error("the embedded database connection is closed")));
      return true;
    }
    for (const bytes of this.#takeComplete(chunk)) {
      this.#turn = this.#turn.then(() => this.#run(bytes));
    }
    this.#turn = this.#turn.then(
      () => done?.(),
      (error) => {
        done?.(error);
        this.#fail(error);
      },
    );
    return true;
  }

  /** The driver's goodbye: the Terminate message, then the connection closes. */
  end(chunk?: Uint8Array): void {
    if (chunk) this.write(chunk);
    this.#turn = this.#turn.then(() => this.#close(false));
  }

  destroy(): void {
    this.#turn = this.#turn.then(() => this.#close(false));
  }

  /**
   * The complete protocol messages buffered so far, keeping an incomplete tail for the next
   * write: the driver writes whole messages, but PGlite must never see half of one. The startup
   * message (no type byte; its length counts from its first byte) goes to PGlite on its own.
   */
  #takeComplete(chunk: Uint8Array): Uint8Array[] {
    let bytes = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const calls: Uint8Array[] = [];
    if (!this.#startupTaken) {
      const size = bytes.length >= 8 ? readInt32(bytes, 0) : 0;
      if (size < 8 || size > bytes.length) {
        this.#pending = bytes;
        return calls;
      }
      this.#startupTaken = true;
      calls.push(bytes.subarray(0, size));
      bytes = bytes.subarray(size);
    }
    let at = 0;
    while (bytes.length - at >= 5) {
      const size = 1 + readInt32(bytes, at + 1);
      if (size < 5 || at + size > bytes.length) break;
      at += size;
    }
    if (at > 0) calls.push(bytes.subarray(0, at));
    this.#pending = bytes.subarray(at);
    return calls;
  }

  async #run(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0 || this.readyState === "closed") return;
    if (!this.#started) {
      const code = readInt32(bytes, 4);
      if (code === CANCEL_REQUEST || code === SSL_REQUEST) {
        // PGlite runs one statement at a time to its end: there is nothing to cancel, and no TLS.
        return await this.#close(false);
      }
      if (code !== PROTOCOL_3) throw new Error(`unexpected startup code ${code}`);
      this.#started = true;
    }
    const answer: Buffer[] = [];
    await this.#pglite.runExclusive(() =>
      this.#pglite.execProtocolRawStream(bytes, {
        // A view into PGlite's memory, overwritten by the next call: copied.
        onRawData: (data) => answer.push(Buffer.from(data)),
      })
    );
    if (answer.length > 0 && this.readyState === "open") {
      this.emit("data", answer.length === 1 ? answer[0] : Buffer.concat(answer));
    }
  }

  /**
   * Closes the connection. PGlite is one session that outlives it: a transaction the driver left
   * open is rolled back, as PostgreSQL does when a client goes away.
   */
  async #close(hadError: boolean): Promise<void> {
    if (this.readyState === "closed") return;
    this.readyState = "closed";
    if (this.#started && !this.#pglite.closed) {
      await this.#pglite.runExclusive(async () => {
        if (!this.#pglite.isInTransaction()) return;
        await this.#pglite.execProtocolRawStream(simpleQuery("ROLLBACK"), { onRawData: () => {} });
        // A PGlite closing meanwhile has no transaction left to roll back.
      }).catch(() => {});
    }
    this.emit("close", hadError);
  }

  #fail(error: unknown): void {
    if (this.readyState === "closed") return;
    this.emit("error", error);
    this.#turn = this.#close(true);
  }
}

function readInt32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getInt32(0);
}

/** A simple-query protocol message. */
export function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write("Q", 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
