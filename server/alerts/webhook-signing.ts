/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is "whsec_" and
 * base64 of random bytes; a message is signed as HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.
 * <body>" with the secret's bytes, sent as "v1,<base64 signature>" in `webhook-signature`.
 * Receivers verify with any Standard Webhooks library (tests use the reference `standardwebhooks`).
 */

const PREFIX = "whsec_";

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A new secret: 32 random bytes (the spec asks for 24 to 64). */
export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The three headers of a signed message: `id` is the notice's stable id. */
export async function signedHeaders(
  secret: string,
  message: { id: string; timestamp: Date; body: string },
): Promise<Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>> {
  const keyBytes = Uint8Array.from(atob(secret.slice(PREFIX.length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey(
    "raw",
    keyBytes,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const seconds = Math.floor(message.timestamp.getTime() / 1000).toString();
  const signed = new TextEncoder().encode(`${message.id}.${seconds}.${message.body}`);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
  return {
    "webhook-id": message.id,
    "webhook-timestamp": seconds,
    "webhook-signature": `v1,${toBase64(signature)}`,
  };
}
