/**
 * Base64url (RFC 4648, section 5, without padding): the one encoding of the service's opaque
 * tokens, such as page cursors, entity tags and session tokens.
 */

/** `bytes` as base64url. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A JSON value as an opaque token: its UTF-8 text in base64url. */
export function encodeJsonToken(value: unknown): string {
  return bytesToBase64Url(new TextEncoder().encode(JSON.stringify(value)));
}

/** The JSON value inside a token of encodeJsonToken; throws on a token that is not one. */
export function decodeJsonToken(token: string): unknown {
  const bytes = Uint8Array.from(
    atob(token.replace(/-/g, "+").replace(/_/g, "/")),
    (ch) => ch.charCodeAt(0),
  );
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
}
