/** Helpers for search tests: calling the API as an operator and as the public. */
import type { Sql } from "postgres";
import type { TestServer } from "../../dev-support/test-server.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

/** An operator request; returns status and parsed body. */
export async function admin(
  server: TestServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await server.fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${server.adminKey}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** GET /api/v1/search with the given parameters. */
export async function search(
  server: TestServer,
  params: Record<string, string>,
): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await server.fetch(`${server.url}/api/v1/search?${new URLSearchParams(params)}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** External ids of a search answer, best first; an error answer fails with its message. */
export function ids(body: Json): string[] {
  if (!Array.isArray(body?.data)) throw new Error(`not a search answer: ${JSON.stringify(body)}`);
  return body.data.map((hit: Json) => hit.event.external_id);
}

/** Polls `check` until it returns true, failing after `timeoutMs`. */
export async function eventually(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
}

/**
 * Postings the table holds and the stored events do not give, or the reverse: none is expected
 * after any insert, edit or delete (one left behind would skew every later bound of the ranking).
 */
export async function strayPostings(sql: Sql): Promise<number> {
  const [{ stray }] = await sql<{ stray: number }[]>`
    WITH given AS (
      SELECT u.lexeme, event_text_impact(event_text_tf(u.weights), length(e.search_vector))
               AS impact, e.id AS event_id
      FROM events e, unnest(e.search_vector) AS u
    )
    SELECT (SELECT count(*) FROM (
      (SELECT lexeme, impact, event_id FROM event_text_postings EXCEPT ALL SELECT * FROM given)
      UNION ALL
      (SELECT * FROM given EXCEPT ALL SELECT lexeme, impact, event_id FROM event_text_postings)
    ) AS d)::int AS stray`;
  return stray;
}
