/** Network failures in plain words: the system's code is kept, its message (internal) is not. */

const WORDS: Record<string, string> = {
  ENOTFOUND: "the host name was not found (check the URL)",
  EAI_AGAIN: "the host name could not be looked up (DNS); check the network",
  ECONNREFUSED: "the connection was refused: is the server running at that address and port?",
  ECONNRESET: "the connection was dropped by the other side",
  EPIPE: "the connection was dropped by the other side",
  EHOSTUNREACH: "the host cannot be reached from here",
  ENETUNREACH: "the network cannot be reached from here",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out (see --timeout)",
  UND_ERR_HEADERS_TIMEOUT: "no answer came within --timeout",
  UND_ERR_BODY_TIMEOUT: "the answer stopped arriving within --timeout",
  UND_ERR_SOCKET: "the connection was dropped by the other side",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
};

interface ErrorLike {
  name?: string;
  code?: string;
  cause?: ErrorLike;
}

/** What went wrong with a request that got no answer, in words for the user. */
export function describeNetworkError(error: unknown): string {
  const e = (error ?? {}) as ErrorLike;
  if (e.name === "TimeoutError" || e.name === "AbortError") {
    return "no answer came within --timeout";
  }
  const code = e.cause?.code ?? e.code ?? e.cause?.cause?.code;
  if (code && WORDS[code]) return `${WORDS[code]} (${code})`;
  if (code && /timeout/i.test(code)) return `no answer came within --timeout (${code})`;
  return code ? `the connection failed (${code})` : "the connection failed";
}
