/**
 * Keeps groups right: re-forms the groups around some events from the links between them.
 * Operators' "same" links first, then detected ones strongest first, unless an operator said two
 * of their listings are not the same: a "not same" decision always splits.
 */
import type { Sql } from "postgres";
import {
  type CanonicalFacts,
  componentOf,
  type Link,
  replaceGroupMembers,
  underDuplicatesLock,
  ungroupedLinkedEvents,
} from "../db/duplicate-links.ts";

// A group past this size is a chain of doubtful links, not one event; the walk stops there.
const MAX_COMPONENT = 200;
const MAX_ROUNDS = 4;

/**
 * Re-forms the groups of `ids`, of the events grouped or linked with them, choosing each group's
 * canonical event. Call it holding the duplicates lock, in the transaction that changed them.
 */
export async function regroup(sql: Sql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const component = await componentOf(sql, { ids, maxDepth: MAX_ROUNDS, maxEvents: MAX_COMPONENT });
  const groups = formGroups(component.ids, component.links);
  const facts = new Map(component.facts.map((f) => [f.id, f]));
  const members = groups.flatMap((group) => {
    // An event deleted meanwhile has no facts: it is in no group.
    const present = group.flatMap((id) => facts.get(id) ?? []);
    if (present.length < 2) return [];
    const canonical = canonicalOf(present).id;
    return present.map((f) => ({ event_id: f.id, group_id: canonical }));
  });
  await replaceGroupMembers(sql, component.ids, members);
}

/**
 * After events were deleted: takes the duplicates lock and re-forms the groups that lost their
 * canonical event (deleting it takes its group's rows along, leaving the others ungrouped).
 */
export async function mendGroupsAfterDeletes(sql: Sql): Promise<void> {
  await underDuplicatesLock(sql, async (tx) => {
    for (let round = 0; round < 20; round++) {
      const orphans = await ungroupedLinkedEvents(tx, 500);
      if (orphans.length === 0) return;
      await regroup(tx, orphans);
      // Linked but rightly apart (an operator's "not same" through a third listing): done.
      const left = await ungroupedLinkedEvents(tx, 500);
      if (left.length >= orphans.length && left.every((id) => orphans.includes(id))) return;
    }
  });
}

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
  for (const { a, b } of links.filter((l) => l.kind === "not_same")) {
    for (const [x, y] of [[a, b], [b, a]]) apart.set(x, (apart.get(x) ?? new Set()).add(y));
  }
  const members = new Map(ids.map((id) => [id, [id]]));
  const kept = (s: Set<string> | undefined, root: string) =>
    s !== undefined && [...s].some((x) => parent.has(x) && find(x) === root);
  const ordered = links.filter((l) => l.kind !== "not_same" && parent.has(l.a) && parent.has(l.b))
    .sort((x, y) => (x.kind === y.kind ? y.score - x.score : x.kind === "same" ? -1 : 1));
  for (const l of ordered) {
    const [ra, rb] = [find(l.a), find(l.b)];
    if (ra === rb) continue;
    if (members.get(ra)!.some((m) => kept(apart.get(m), rb))) continue;
    parent.set(rb, ra);
    members.get(ra)!.push(...members.get(rb)!);
    members.delete(rb);
  }
  return [...members.values()].filter((g) => g.length > 1);
}

/**
 * The canonical listing of a group, the one shown when it is collapsed: the product's one rule.
 * Trusted contributor first, then the most complete listing, then the earliest written (and the
 * smallest id, so that the choice never depends on the order rows were read in).
 */
export function canonicalOf<T extends CanonicalFacts>(members: T[]): T {
  return members.reduce((best, m) => (compareForCanonical(m, best) < 0 ? m : best));
}

function compareForCanonical(a: CanonicalFacts, b: CanonicalFacts): number {
  if (a.trusted !== b.trusted) return a.trusted ? -1 : 1;
  if (a.completeness !== b.completeness) return b.completeness - a.completeness;
  const written = a.created_at.getTime() - b.created_at.getTime();
  if (written !== 0) return written;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
