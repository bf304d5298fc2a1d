/**
 * Where each HTTP/1.1 request on a connection begins and ends, read from the bytes a client
 * sends: enough to time a request's head and body, nothing more. The bytes themselves go to
 * Deno.serve unchanged, which does the real parsing and answers malformed requests; a stream this
 * framer cannot follow (an upgrade, HTTP/2, a head it cannot read) becomes a "tunnel", which the
 * front times as a whole: this service has no use for either. A head longer than this service
 * ever needs is "oversized": the front answers it (414 or 431) instead of Deno.serve, whose own
 * answer to a head past its 64 KiB is an empty 400.
 */

/** What the client is sending now. */
export type FramePhase =
  /** Nothing: the previous request is complete (or none has begun). */
  | "between"
  /** A request head, up to its blank line. */
  | "head"
  /** A request body. */
  | "body"
  /** Bytes this framer does not follow. */
  | "tunnel"
  /** A request head past its bound (see `oversized`): nothing more is followed. */
  | "oversized";

/** Which bound an oversized head broke. */
export type OversizedPart = "request-line" | "head";

const CR = 13;
const LF = 10;
/** The longest request line (method, target, version): targets here are short URLs. */
export const MAX_REQUEST_LINE_BYTES = 32 * 1024;
/** The longest request head, request line and header fields together. */
export const MAX_HEAD_BYTES = 48 * 1024;
/** The most header fields in a head: Deno.serve refuses more than 100 with an empty 400. */
export const MAX_HEADER_FIELDS = 100;
const MAX_CHUNK_LINE = 4 * 1024;

type ChunkState = "size" | "data" | "data-end" | "trailer";

/** Follows the requests of one connection. */
export class RequestFramer {
  #phase: FramePhase = "between";
  /** Counts phase changes, so that a caller sees a new request even within one push. */
  #changes = 0;
  #head: number[] = [];
  /** Line ends in the head so far: the request line's, then one per header field. */
  #lines = 0;
  #oversized: OversizedPart | null = null;
  #bodyLeft = 0;
  #chunked = false;
  #chunk: ChunkState = "size";
  #line: number[] = [];

  get phase(): FramePhase {
    return this.#phase;
  }

  /** Which bound the head broke, once the phase is "oversized". */
  get oversized(): OversizedPart | null {
    return this.#oversized;
  }

  /** Grows on every phase change. */
  get changes(): number {
    return this.#changes;
  }

  /** Follows `bytes`, the next bytes the client sent. */
  push(bytes: Uint8Array): void {
    let i = 0;
    while (i < bytes.length && this.#phase !== "tunnel" && this.#phase !== "oversized") {
      if (this.#phase === "between") this.#enter("head");
      if (this.#phase === "head") i = this.#readHead(bytes, i);
      else if (this.#chunked) i = this.#readChunked(bytes, i);
      else i = this.#readLength(bytes, i);
    }
  }

  #enter(phase: FramePhase): void {
    this.#phase = phase;
    this.#changes++;
  }

  #readHead(bytes: Uint8Array, from: number): number {
    for (let i = from; i < bytes.length; i++) {
      // Empty lines before a request line are allowed (RFC 9112, 2.2).
      if (this.#head.length === 0 && (bytes[i] === CR || bytes[i] === LF)) continue;
      this.#head.push(bytes[i]);
      const n = this.#head.length;
      if (n >= 4 && bytes[i] === LF && this.#head[n - 2] === CR && this.#head[n - 3] === LF) {
        this.#startBody(new TextDecoder().decode(new Uint8Array(this.#head)));
        this.#head = [];
        this.#lines = 0;
        return i + 1;
      }
      if (bytes[i] === LF) this.#lines++;
      const tooLong = this.#lines === 0 && n > MAX_REQUEST_LINE_BYTES
        ? "request-line"
        : n > MAX_HEAD_BYTES || this.#lines > MAX_HEADER_FIELDS + 1
        ? "head"
        : null;
      if (tooLong) {
        this.#oversized = tooLong;
        this.#enter("oversized");
        return bytes.length;
      }
    }
    return bytes.length;
  }

  #startBody(head: string): void {
    const lines = head.split("\r\n");
    if (/^PRI \* HTTP\/2/.test(lines[0]) || !/ HTTP\/1\.[01]$/.test(lines[0])) {
      return this.#enter("tunnel");
    }
    const field = (name: string) =>
      lines.filter((l) => l.toLowerCase().startsWith(`${name}:`)).map((l) =>
        l.slice(name.length + 1).trim().toLowerCase()
      );
    if (field("upgrade").length > 0) return this.#enter("tunnel");
    this.#chunked = field("transfer-encoding").some((v) => v.includes("chunked"));
    if (this.#chunked) {
      this.#chunk = "size";
      this.#line = [];
      return this.#enter("body");
    }
    const lengths = field("content-length");
    if (lengths.length === 0) return this.#enter("between");
    const length = Number(lengths[0]);
    if (!Number.isSafeInteger(length) || length < 0 || lengths.some((l) => l !== lengths[0])) {
      // Deno.serve refuses it; what follows cannot be framed.
      return this.#enter("tunnel");
    }
    this.#bodyLeft = length;
    this.#enter(length === 0 ? "between" : "body");
  }

  #readLength(bytes: Uint8Array, from: number): number {
    const take = Math.min(this.#bodyLeft, bytes.length - from);
    this.#bodyLeft -= take;
    if (this.#bodyLeft === 0) this.#enter("between");
    return from + take;
  }

  #readChunked(bytes: Uint8Array, from: number): number {
    let i = from;
    while (i < bytes.length && this.#phase === "body") {
      if (this.#chunk === "data") {
        const take = Math.min(this.#bodyLeft, bytes.length - i);
        this.#bodyLeft -= take;
        i += take;
        if (this.#bodyLeft === 0) this.#chunk = "data-end";
        continue;
      }
      const byte = bytes[i++];
      if (byte !== LF) {
        this.#line.push(byte);
        if (this.#line.length > MAX_CHUNK_LINE) this.#enter("tunnel");
        continue;
      }
      this.#endOfLine(new TextDecoder().decode(new Uint8Array(this.#line)).replace(/\r$/, ""));
      this.#line = [];
    }
    return i;
  }

  #endOfLine(line: string): void {
    if (this.#chunk === "data-end") {
      this.#chunk = "size";
    } else if (this.#chunk === "trailer") {
      if (line === "") this.#enter("between");
    } else {
      const size = parseInt(line.split(";")[0].trim(), 16);
      if (!Number.isSafeInteger(size) || size < 0) return this.#enter("tunnel");
      this.#bodyLeft = size;
      this.#chunk = size === 0 ? "trailer" : "data";
    }
  }
}
