/** Every row of every table of a database, as comparable text: what a restore must reproduce. */
import type { Sql } from "postgres";

/** Table name -> its rows as JSON text, sorted; covers tables added by any later migration. */
export async function allTableRows(sql: Sql): Promise<Map<string, string[]>> {
  const tables = await sql<{ name: string }[]>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  const result = new Map<string, string[]>();
  for (const { name } of tables) {
    const rows = await sql.unsafe<{ row: string }[]>(
      `SELECT to_jsonb(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`,
    );
    result.set(name, rows.map((r) => r.row).sort());
  }
  return result;
}
