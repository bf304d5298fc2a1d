/**
 * API key format: `evk_` + 32 random base62 characters + 6 base62 characters of CRC32 over the
 * rest. The checksum lets secret scanners and the CLI spot a well-formed key offline, and the
 * server reject typos without a database round trip.
 */

export const API_KEY_PREFIX = "evk_";
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** Characters of a key shown to operators and stored in clear, enough to tell keys apart. */
export const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH}}[0-9A-Za-z]{${CHECKSUM_LENGTH}}$`,
);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new random key; 32 base62 characters carry about 190 bits of randomness. */
export function generateApiKey(): string {
  // Rejection sampling keeps every character uniformly distributed.
  let body = "";
  while (body.length < BODY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      if (byte < 248 && body.length < BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  const head = API_KEY_PREFIX + body;
  return head + base62(crc32(head), CHECKSUM_LENGTH);
}

/** Whether `key` has the shape of one of our keys and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const head = key.slice(0, -CHECKSUM_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === base62(crc32(head), CHECKSUM_LENGTH);
}

/** Whether `text` has the form of a key's display prefix, e.g. `evk_AbCd1234`. */
export function isDisplayPrefix(text: string): boolean {
  return text.length === DISPLAY_PREFIX_LENGTH && text.startsWith(API_KEY_PREFIX) &&
    /^[0-9A-Za-z]+$/.test(text.slice(API_KEY_PREFIX.length));
}

/** The part of a key that is stored and shown in clear. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
