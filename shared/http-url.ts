/**
 * Whether a text is an absolute http(s) URL with a host, as WHATWG URL parsing (the browsers', and
 * both runtimes' `URL`) reads it. The event schema asks this of every URL field of every event.
 */

const HTTP_SCHEME = /^https?:\/\//i;

// The common shape: http(s)://, a host of ASCII letters, digits and hyphens in dot-separated
// labels (a final dot allowed), then nothing or a path, query or fragment. Parsing such a host
// cannot fail unless its last label reads as a number (then it is parsed as an IPv4 address) or a
// label is Punycode (`xn--`, then it is decoded and checked); what follows the host never makes
// parsing fail. Anything else goes to `new URL`, which costs more than the rest of an event's
// field checks together.
const PLAIN_HOST_URL = /^https?:\/\/((?:[a-z0-9-]+\.)*([a-z0-9-]+)\.?)(?:[/?#]|$)/i;
const NUMBER_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/i;
const PUNYCODE_LABEL = /(?:^|\.)xn--/i;

/** Whether `text` is an absolute http:// or https:// URL with a host. */
export function isHttpUrl(text: string): boolean {
  const plain = PLAIN_HOST_URL.exec(text);
  if (plain !== null && !NUMBER_LABEL.test(plain[2]) && !PUNYCODE_LABEL.test(plain[1])) {
    return true;
  }
  if (!HTTP_SCHEME.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
