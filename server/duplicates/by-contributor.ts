/** Detection runs per contributor: rows of many, grouped by whose they are. */

/** `rows` grouped by contributor, in their order. */
export function byContributor<T extends { contributor_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const own = groups.get(row.contributor_id);
    if (own) own.push(row);
    else groups.set(row.contributor_id, [row]);
  }
  return groups;
}
