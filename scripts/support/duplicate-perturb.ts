/**
 * A check of the duplicate rules not built from their own misses: one listing of every labelled
 * pair and of every hard negative is changed the way another list might write it (a day or two
 * later, a venue in another town, its title as an acronym), and the same scoring runs again. The
 * rules were written by reading this set's misses, so what they keep under changes they never saw
 * says more about unseen lists than their figures on the set itself.
 */
import type { SourceEvent } from "./duplicate-sources.ts";
import type { Labels } from "./duplicate-eval.ts";

/** How one listing is changed. */
export type Perturbation = "day+1" | "day+2" | "town" | "acronym" | "camel-acronym";

export const PERTURBATIONS: Perturbation[] = ["day+1", "day+2", "town", "acronym", "camel-acronym"];

const DAY = 86_400_000;
// Words an acronym leaves out, as lists write them ("Conference on X" is "CX" as often as not).
const SKIPPED = new Set(
  "the a an of and in on at for by 2019 2020 2021 2022 2023 2024 2025 2026 2027"
    .split(" "),
);

const shift = (iso: string | undefined, days: number) =>
  iso === undefined ? undefined : new Date(Date.parse(iso) + days * DAY).toISOString();

/**
 * The title as an acronym of its words, or null when it has fewer than three: "Southern
 * California Linux Expo 2024" is "SCLE 2024"; `camel` keeps the second letter of the second word
 * in lower case, as "SCaLE" does.
 */
export function acronymTitle(title: string, camel: boolean): string | null {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  const year = words.find((w) => /^(19|20)\d\d$/.test(w));
  const named = words.filter((w) => !SKIPPED.has(w.toLowerCase()) && /^\p{L}/u.test(w));
  if (named.length < 3 || named.some((w) => /^[A-Z]{2,}$/.test(w))) return null;
  const letters = named.map((w, i) =>
    w[0].toUpperCase() + (camel && i === 1 && w.length > 1 ? w[1].toLowerCase() : "")
  ).join("");
  return year ? `${letters} ${year}` : letters;
}

function perturbed(e: SourceEvent, other: SourceEvent, how: Perturbation): SourceEvent | null {
  switch (how) {
    case "day+1":
    case "day+2": {
      const days = how === "day+1" ? 1 : 2;
      return {
        ...e,
        starts_at: shift(e.starts_at, days)!,
        ends_at: shift(e.ends_at ?? undefined, days),
      };
    }
    case "town":
      // A venue outside the city: another town's name, no coordinates to compare.
      return { ...e, city: "Oakbridge", latitude: undefined, longitude: undefined };
    case "acronym":
    case "camel-acronym": {
      // One list writes the name out, the other abbreviates it: the acronym of the other's title,
      // this listing's own year kept.
      const title = acronymTitle(
        other.title.replace(/\b(19|20)\d\d\b/g, " "),
        how === "camel-acronym",
      );
      const year = e.title.match(/\b(19|20)\d\d\b/)?.[0];
      return title === null ? null : { ...e, title: year ? `${title} ${year}` : title };
    }
  }
}

/**
 * The lists with one listing of each labelled pair and hard negative changed by `how` (the second
 * of the pair, or the first when the second cannot be: a title of fewer than three words has no
 * acronym; an acronym is of the other listing's title, and only for labelled pairs), and how many
 * listings changed. A listing in several pairs changes once.
 */
export function perturbSources(
  sources: { name: string; events: SourceEvent[] }[],
  o: { labels: Labels; how: Perturbation },
): { sources: { name: string; events: SourceEvent[] }[]; changed: number } {
  const byId = new Map(sources.flatMap((s) => s.events.map((e) => [e.external_id, e])));
  const changes = new Map<string, SourceEvent>();
  // An acronym of the other listing's title is, by construction, what a duplicate looks like:
  // applied to a hard negative it would test nothing but that. Only the labelled pairs get one.
  const acronym = o.how === "acronym" || o.how === "camel-acronym";
  const pairs = acronym ? [...o.labels.positives] : [
    ...o.labels.positives,
    ...o.labels.hardNegatives.keys(),
  ];
  for (const key of pairs) {
    const [a, b] = key.split("|");
    if (changes.has(a) || changes.has(b)) continue;
    for (const [id, other] of [[b, a], [a, b]]) {
      const changed = perturbed(byId.get(id)!, byId.get(other)!, o.how);
      if (changed !== null) {
        changes.set(id, changed);
        break;
      }
    }
  }
  return {
    sources: sources.map((s) => ({
      name: s.name,
      events: s.events.map((e) => changes.get(e.external_id) ?? e),
    })),
    changed: changes.size,
  };
}
