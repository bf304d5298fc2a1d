/**
 * The repository's own import graph, read from the source text: which module imports which
 * (relative specifiers only; packages are not ours), and whether only for types.
 */

/** One import of one of our modules by another; paths are relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type`, or every named specifier marked `type`: gone at run time. */
  typeOnly: boolean;
}

const ROOT = new URL("../../", import.meta.url);
const SKIPPED_DIRS = new Set(["node_modules", "fixtures", "dist", "static", ".cache"]);
const SOURCE = /\.(ts|tsx|mjs)$/;
// `import x from "./y"`, `import type {...} from "./y"`, `export {...} from "./y"`, `import "./y"`.
const STATEMENT =
  /^\s*(?:(import|export)\s+(type\s+)?([^;]*?)\s+from\s+|import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** Every source file under `dirs` (repository-relative), sorted. */
export async function sourceFiles(dirs: string[]): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && !SKIPPED_DIRS.has(entry.name)) await walk(path);
      else if (entry.isFile && SOURCE.test(entry.name)) files.push(path);
    }
  };
  for (const dir of dirs) await walk(dir);
  return files.sort();
}

/** Whether the specifier list `{ type A, type B }` names types only. */
function allTypes(clause: string): boolean {
  const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1].split(",").map((n) => n.trim())
    .filter((n) => n !== "");
  return names !== undefined && names.length > 0 && names.every((n) => n.startsWith("type "));
}

/** The imports of our own modules made by `files`. */
export async function importEdges(files: string[]): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = await Deno.readTextFile(new URL(from, ROOT));
    for (const match of text.matchAll(STATEMENT)) {
      const [, , typeWord, clause, specifier] = match;
      const to = new URL(specifier, new URL(from, ROOT)).pathname.slice(ROOT.pathname.length);
      edges.push({ from, to, typeOnly: Boolean(typeWord) || (clause ? allTypes(clause) : false) });
    }
  }
  return edges;
}

/** The cycles of the graph (each as the modules on it, first repeated last); at most `limit`. */
export function findCycles(edges: ImportEdge[], limit = 10): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    path.push(node);
    for (const to of next.get(node) ?? []) {
      if (cycles.length >= limit) break;
      if (state.get(to) === "open") cycles.push([...path.slice(path.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
