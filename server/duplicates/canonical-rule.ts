/**
 * Which listing of a group is shown when a group is collapsed: the product's one rule for it.
 * Trusted contributor first, then the most complete listing, then the earliest written (and the
 * smallest id, so that the choice never depends on the order rows were read in).
 */

/** What the rule reads of each listing. */
export interface CanonicalCandidate {
  id: string;
  trusted: boolean;
  /** How many optional fields the listing fills in. */
  completeness: number;
  created_at: Date | string;
}

const time = (v: Date | string) => (v instanceof Date ? v.getTime() : Date.parse(v));

/** Orders listings, the one to show first. */
export function compareForCanonical(a: CanonicalCandidate, b: CanonicalCandidate): number {
  if (a.trusted !== b.trusted) return a.trusted ? -1 : 1;
  if (a.completeness !== b.completeness) return b.completeness - a.completeness;
  const written = time(a.created_at) - time(b.created_at);
  if (written !== 0) return written;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The canonical listing of a group (which must not be empty). */
export function canonicalOf<T extends CanonicalCandidate>(members: T[]): T {
  if (members.length === 0) throw new Error("Cannot choose a canonical event: the group is empty");
  return members.reduce((best, m) => (compareForCanonical(m, best) < 0 ? m : best));
}
