/** Suggests the known name closest to a misspelt one. */

/** Edits between two names: insertions, deletions, substitutions and swaps of neighbours. */
function distance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

/** The name of `known` closest to `name` (case-insensitive), if close enough to be a typo. */
export function closestName(name: string, known: readonly string[]): string | null {
  const wanted = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(wanted, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  // About one typo in four letters, at least one and at most three.
  const allowed = Math.min(3, Math.max(1, Math.floor(wanted.length / 4)));
  return bestDistance <= allowed ? best : null;
}
