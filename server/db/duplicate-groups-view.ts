/** Groups of duplicate listings as operators review them. */
import type { Sql } from "postgres";

/** One listing of a group, with who contributed it. */
export interface GroupListing {
  id: string;
  title: string;
  platform: string;
  source_url: string;
  starts_at: Date;
  city: string | null;
  country: string | null;
  contributor: string;
  canonical: boolean;
  /** How the listing is linked to the canonical one: detected, same (an operator) or none. */
  link: string | null;
}

/** The `limit` groups most recently formed or changed, their canonical listing first. */
export async function recentGroups(sql: Sql, limit: number): Promise<GroupListing[][]> {
  const rows = await sql<(GroupListing & { group_id: string })[]>`
    WITH recent AS (
      SELECT m.group_id, max(greatest(e.updated_at, e.created_at)) AS changed
      FROM event_group_members m JOIN events e ON e.id = m.event_id
      GROUP BY m.group_id ORDER BY changed DESC LIMIT ${limit}
    )
    SELECT m.group_id, e.id, e.title, e.platform, e.source_url, e.starts_at, e.city, e.country,
           c.name AS contributor, m.canonical, l.kind AS link
    FROM recent r
    JOIN event_group_members m ON m.group_id = r.group_id
    JOIN events e ON e.id = m.event_id
    JOIN contributors c ON c.id = e.contributor_id
    LEFT JOIN event_links l ON (l.a, l.b) = (least(e.id, m.group_id), greatest(e.id, m.group_id))
    ORDER BY r.changed DESC, m.group_id, m.canonical DESC, e.created_at, e.id`;
  const groups = Map.groupBy(rows, (r) => r.group_id).values();
  return [...groups].map((group) => group.map(({ group_id: _, ...listing }) => listing));
}
