/** Listings and links the tests of the key index and of early comparisons share. */
import type { Sql } from "postgres";

/** A conference alice lists, as the API takes it. */
export const QUARZOCON = {
  external_id: "a-1",
  platform: "other",
  source_url: "https://quarzocon.example.org/",
  title: "QuarzoCon 2034",
  starts_at: "2034-05-10T09:00:00Z",
  city: "Turin",
};

const CITIES: [string, number, number][] = [
  ["Berlin", 52.52, 13.4],
  ["Potsdam", 52.4, 13.06],
  ["Lyon", 45.76, 4.84],
  ["Online", 0, 0],
];
const WORDS = ["rust", "data", "cloud", "web", "python", "devops", "react", "kotlin"];

/**
 * Listings of one busy fortnight: titles sharing words, some long, some online, some without
 * coordinates, and a second contributor's copies of one in three, a day off or in its own words.
 */
export function busyFortnight(): { who: number; event: Record<string, unknown> }[] {
  const out: { who: number; event: Record<string, unknown> }[] = [];
  for (let i = 0; i < 160; i++) {
    const [city, latitude, longitude] = CITIES[i % CITIES.length];
    const words = [WORDS[i % 8], WORDS[(i * 3 + 1) % 8], ["Summit", "Meetup", "Conf"][i % 3]];
    const day = 1 + (i * 7) % 14;
    const event = {
      external_id: `a-${i}`,
      platform: "other",
      source_url: `https://${words[0]}${i % 5}.example.org/`,
      title: `${words.join(" ")} ${city}`,
      starts_at: `2034-03-${String(day).padStart(2, "0")}T09:00:00Z`,
      ends_at: i % 9 === 0 ? `2034-03-${String(day + 6).padStart(2, "0")}T18:00:00Z` : undefined,
      city: city === "Online" ? undefined : city,
      is_virtual: city === "Online",
      latitude: city === "Online" || i % 5 === 0 ? undefined : latitude,
      longitude: city === "Online" || i % 5 === 0 ? undefined : longitude,
    };
    out.push({ who: 0, event });
    if (i % 3 === 0) {
      out.push({
        who: 1,
        event: {
          ...event,
          external_id: `b-${i}`,
          platform: "meetup",
          title: i % 2 ? `${words.slice(0, 2).join(" ")} ${words[2]}` : event.title,
          starts_at: `2034-03-${String(day + (i % 2)).padStart(2, "0")}T11:00:00Z`,
          source_url: `https://www.${words[0]}${i % 5}.example.org/?utm_source=list`,
        },
      });
    }
  }
  return out;
}

/** The detected links, by external ids. */
export async function linksOf(sql: Sql): Promise<string[]> {
  const rows = await sql<{ a: string; b: string }[]>`
    SELECT least(ea.external_id, eb.external_id) AS a, greatest(ea.external_id, eb.external_id) AS b
    FROM event_links l JOIN events ea ON ea.id = l.a JOIN events eb ON eb.id = l.b
    WHERE l.kind = 'detected' ORDER BY 1, 2`;
  return rows.map((r) => `${r.a} ${r.b}`);
}
