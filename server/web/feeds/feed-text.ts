/** Text from contributors made safe for feeds, whatever characters it holds. */

// XML 1.0 allows tab, newline, carriage return, and U+0020 upwards except surrogates (which a
// JavaScript string can still hold alone), U+FFFE and U+FFFF.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text without characters that XML 1.0 cannot hold. */
export function xmlSafeText(text: string): string {
  return text.replace(NOT_XML_CHAR, "");
}

/** Escaped for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return xmlSafeText(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

// iCalendar TEXT may hold any character but the controls (RFC 5545 3.3.11); tab is allowed.
// deno-lint-ignore no-control-regex
const ICAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]|\p{Cs}/gu;

/** Escaped as an iCalendar TEXT value: backslash, semicolon, comma and line breaks. */
export function escapeIcalText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(ICAL_CONTROL, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\n/g, "\\n");
}
