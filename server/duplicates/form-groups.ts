/**
 * Groups from links: operators' "same" links first, then detected ones strongest first, each
 * joining two groups unless an operator said that some listing of one is not the same as some
 * listing of the other. So a "not same" decision always splits, whatever detection finds later.
 */

import type { Link } from "../db/duplicate-links.ts";

/** The groups of two or more listings that the links form among `ids`. */
export function formGroups(ids: string[], links: Link[]): string[][] {
  const parent = new Map(ids.map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const apart = new Map<string, Set<string>>();
  for (const l of links) {
    if (l.kind !== "not_same") continue;
    if (!apart.has(l.a)) apart.set(l.a, new Set());
    if (!apart.has(l.b)) apart.set(l.b, new Set());
    apart.get(l.a)!.add(l.b);
    apart.get(l.b)!.add(l.a);
  }
  const members = new Map(ids.map((id) => [id, [id]]));
  const kept = (s: Set<string> | undefined, root: string) =>
    s !== undefined && [...s].some((x) => parent.has(x) && find(x) === root);
  const ordered = links.filter((l) => l.kind !== "not_same" && parent.has(l.a) && parent.has(l.b))
    .sort((x, y) => (x.kind === y.kind ? y.score - x.score : x.kind === "same" ? -1 : 1));
  for (const l of ordered) {
    const ra = find(l.a);
    const rb = find(l.b);
    if (ra === rb) continue;
    if (members.get(ra)!.some((m) => kept(apart.get(m), rb))) continue;
    parent.set(rb, ra);
    members.get(ra)!.push(...members.get(rb)!);
    members.delete(rb);
  }
  return [...members.values()].filter((g) => g.length > 1);
}
