/**
 * Checks that every relative link and #anchor in README.md and docs/*.md resolves: the file exists
 * and, for a Markdown page, the anchor is one of its headings as GitHub slugs them. External links
 * (http, mailto, ...) are not followed: CI has no network. Run by tests/docs/doc-links.test.ts.
 *
 *   deno run --allow-read scripts/check-links.ts [root]   # exits 1 listing each broken link
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { markdownAnchors, markdownLinks } from "./support/markdown-links.ts";

/** One link that does not resolve: where it is written and why it fails. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The pages checked: README.md and every Markdown file directly in docs/, relative to root. */
export async function documentationPages(root: string): Promise<string[]> {
  const pages = ["README.md"];
  for await (const entry of Deno.readDir(join(root, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) pages.push(join("docs", entry.name));
  }
  return pages.sort();
}

async function pathKind(path: string): Promise<"file" | "directory" | null> {
  try {
    const info = await Deno.stat(path);
    return info.isDirectory ? "directory" : "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Every broken relative link or anchor of the given pages (paths relative to root). */
export async function findBrokenLinks(
  root: string,
  pages: string[],
): Promise<BrokenLink[]> {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = async (path: string) => {
    if (!anchorsOf.has(path)) anchorsOf.set(path, markdownAnchors(await Deno.readTextFile(path)));
    return anchorsOf.get(path)!;
  };
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    const pagePath = resolve(root, page);
    for (const { target, line } of markdownLinks(await Deno.readTextFile(pagePath))) {
      if (EXTERNAL.test(target) || target.startsWith("//")) continue;
      const at = { file: page, line, target };
      const [pathPart, anchor] = splitTarget(target);
      const linked = pathPart === "" ? pagePath : resolve(dirname(pagePath), pathPart);
      if (relative(resolve(root), linked).startsWith("..")) {
        broken.push({ ...at, reason: "points outside the repository" });
        continue;
      }
      const kind = await pathKind(linked);
      if (kind === null) {
        broken.push({ ...at, reason: `no such file: ${relative(root, linked)}` });
      } else if (anchor !== undefined && kind === "file" && linked.endsWith(".md")) {
        if (!(await anchors(linked)).has(anchor)) {
          broken.push({ ...at, reason: `no heading with the anchor #${anchor}` });
        }
      }
    }
  }
  return broken;
}

function splitTarget(target: string): [string, string | undefined] {
  const hash = target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  return [path, hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))];
}

if (import.meta.main) {
  const root = Deno.args[0] ?? join(dirname(fileURLToPath(import.meta.url)), "..");
  const pages = await documentationPages(root);
  const broken = await findBrokenLinks(root, pages);
  for (const link of broken) {
    console.error(`${link.file}:${link.line}: ${link.target}: ${link.reason}`);
  }
  console.log(`${pages.length} pages checked, ${broken.length} broken links`);
  if (broken.length > 0) Deno.exit(1);
}
