/**
 * Builds tests/fixtures/fosdem-talks/talks.json from FOSDEM schedule exports (Pentabarf XML, as
 * fosdem.org/<year>/schedule/xml serves them): per talk its id, year, track, start, title and
 * abstract as plain text (markup removed, at most ABSTRACT_CHARS). The track is the label the
 * evaluation judges by; it is never pushed as the event's text.
 *
 *   deno run -A scripts/eval-search-import-fosdem.ts 2025.xml 2026.xml
 */
import type { Talk } from "./support/eval-fosdem.ts";

const ABSTRACT_CHARS = 1_200;
const OUT = new URL("../tests/fixtures/fosdem-talks/talks.json", import.meta.url);

const talks: Talk[] = [];
for (const path of Deno.args) {
  const xml = await Deno.readTextFile(path);
  const year = Number(/<start>(\d{4})-/.exec(xml)?.[1]);
  if (!Number.isInteger(year)) throw new Error(`Cannot read ${path}: no conference start`);
  const events = xml.match(/<event [^>]*>[\s\S]*?<\/event>/g) ?? [];
  for (const event of events.slice(0, 5_000)) {
    const field = (name: string) =>
      new RegExp(`<${name}(?: [^>]*)?>([\\s\\S]*?)</${name}>`).exec(event)?.[1] ?? "";
    const id = /<event [^>]*\bid="(\d+)"/.exec(event)?.[1];
    const track = plain(field("track"));
    const title = plain(field("title"));
    if (!id || !track || !title) continue;
    const abstract = plain(`${field("abstract")} ${field("description")}`);
    talks.push({
      id: `fosdem-${year}-${id}`,
      year,
      track,
      starts_at: field("date"),
      title,
      abstract: cut(abstract, ABSTRACT_CHARS),
    });
  }
}
await Deno.writeTextFile(OUT, JSON.stringify(talks, null, 0).replaceAll("},{", "},\n{") + "\n");
console.log(`Wrote ${talks.length} talks to ${OUT.pathname}`);

/** XML text with its escaped HTML decoded and the tags dropped, blanks collapsed. */
function plain(text: string): string {
  const html = decode(text);
  return decode(html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
}

function decode(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)))
    .replaceAll("&nbsp;", " ").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"').replaceAll("&apos;", "'").replaceAll("&amp;", "&");
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max);
  return `${text.slice(0, space > max * 0.8 ? space : max)} …`;
}
