/** Reading what the site serves: pages, their JSON-LD, and feeds parsed by real parsers. */
import ICAL from "ical.js";
import { SaxesParser } from "saxes";

/** A fetched page. */
export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
}

/** GETs a path of the server (no redirects followed). */
export async function get(base: string, path: string, init: RequestInit = {}): Promise<Fetched> {
  const res = await fetch(`${base}${path}`, { redirect: "manual", ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The parsed JSON-LD blocks of an HTML page. */
export function jsonLdOf(html: string): Record<string, unknown>[] {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  return blocks.map((m) => JSON.parse(m[1]));
}

/** The VEVENTs of an iCalendar text, parsed by ical.js (which throws on malformed input). */
export function icsEvents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
}

/** Parses XML strictly (XML 1.0 well-formedness, allowed characters); throws on the first error. */
export function parseXml(text: string): { elements: { name: string; text: string }[] } {
  const parser = new SaxesParser();
  const elements: { name: string; text: string }[] = [];
  const open: { name: string; text: string }[] = [];
  let error: Error | null = null;
  parser.on("error", (e) => (error ??= e));
  parser.on("opentag", (tag) => open.push({ name: tag.name, text: "" }));
  parser.on("text", (t) => {
    if (open.length) open[open.length - 1].text += t;
  });
  parser.on("closetag", () => elements.push(open.pop()!));
  parser.write(text).close();
  if (error) throw error;
  return { elements };
}

/** Hrefs of every <a> in a page. */
export function linksOf(html: string): { href: string; rel: string | null }[] {
  return [...html.matchAll(/<a\b([^>]*)>/g)].map((m) => {
    const href = /\bhref="([^"]*)"/.exec(m[1])?.[1] ?? "";
    const rel = /\brel="([^"]*)"/.exec(m[1])?.[1] ?? null;
    return { href: href.replaceAll("&amp;", "&"), rel };
  });
}
