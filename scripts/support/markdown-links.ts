/**
 * The links and heading anchors of a Markdown page, read as GitHub renders it: what
 * scripts/check-links.ts needs to tell a link that resolves from one that does not.
 */

/** One link written in a page, with the line it starts on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
// Inline links and images `[text](target "title")`, and reference definitions `[x]: target`.
const INLINE_LINK = /!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
const HTML_ANCHOR = /<a\s[^>]*(?:id|name)="([^"]+)"/g;
// github-slugger's rule: drop every character that is not a letter, mark, number, connector
// (underscore), space or hyphen; then each space becomes a hyphen (runs are not collapsed).
const NOT_SLUG = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/** The page's lines outside fenced code blocks, each with its 1-based number. */
function proseLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, index) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence === null && opening) fence = opening[0].repeat(opening.length);
    else if (fence !== null && opening?.startsWith(fence)) fence = null;
    else if (fence === null) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

/** A line with its code spans blanked out (same length), so links shown as code are not links. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]+?\1/g, (span) => " ".repeat(span.length));
}

/** Every link of a page outside code, with the line it is on. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text: raw, line } of proseLines(text)) {
    const prose = withoutCodeSpans(raw);
    const definition = REFERENCE_DEFINITION.exec(prose)?.[1];
    if (definition) links.push({ target: definition, line });
    for (const match of prose.matchAll(INLINE_LINK)) links.push({ target: match[1], line });
  }
  return links;
}

/** The text GitHub shows for a heading's Markdown: code, links, emphasis and tags unwrapped. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\*+/g, "");
}

/** GitHub's anchor for a heading's text, before duplicates get their `-1`, `-2` suffix. */
export function headingSlug(markdown: string): string {
  return headingText(markdown).trim().toLowerCase().replace(NOT_SLUG, "").replaceAll(" ", "-");
}

/** Every anchor a page offers: its headings' slugs (numbered as GitHub numbers repeats) and HTML ids. */
export function markdownAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = ATX_HEADING.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(HTML_ANCHOR)) anchors.add(match[1]);
  }
  return anchors;
}
