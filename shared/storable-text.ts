/**
 * What PostgreSQL text can hold: no NUL character, ever (a query carrying one fails, so it must
 * be refused before it reaches SQL), and in stored fields no half of a UTF-16 surrogate pair,
 * which JSON can escape (\ud800) but UTF-8 cannot encode. Every string the service reads, from
 * bodies, query parameters, cursors and tool arguments, is checked with these.
 */

const LONE_SURROGATE = /\p{Cs}/u;
// A NUL or a lone surrogate needs one of these code units. Finding none is a quick scan, while a
// Unicode-aware regex such as LONE_SURROGATE was the costliest rule of every event text field.
// deno-lint-ignore no-control-regex -- NUL is what it looks for
const NUL_OR_SURROGATE = /[\u0000\ud800-\udfff]/;

/** Whether `text` holds a NUL character. */
export function hasNul(text: string): boolean {
  return text.includes("\u0000");
}

/** The message for a NUL in `field`. */
export function nulMessage(field: string): string {
  return `${field} must not contain NUL (the character \\u0000, %00 in a URL): remove it`;
}

/** Why `text` cannot be stored as it is: a NUL, half a surrogate pair, or null when it can. */
export function unstorableText(text: string): "nul" | "lone_surrogate" | null {
  if (!NUL_OR_SURROGATE.test(text)) return null;
  if (hasNul(text)) return "nul";
  return LONE_SURROGATE.test(text) ? "lone_surrogate" : null;
}

/** The message for a lone surrogate in `field`. */
export function loneSurrogateMessage(field: string): string {
  return `${field} contains an unpaired UTF-16 surrogate (such as \\ud800): send valid Unicode`;
}
