/** The `{id}` of the operator endpoints on a contributor: its schema and its lookup. */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { contributorExists } from "../db/event-deletes.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";

export const ContributorRefParams = z.object({
  id: z.string().meta({ description: "The contributor's id (contributor_id of its keys)." }),
});

/** The id when a contributor has it; else 404 saying where contributor ids come from. */
export async function existingContributorId(c: Context<AppEnv>, id: string): Promise<string> {
  if (!isUuid(id) || !await contributorExists(c.get("deps").db.sql, id)) {
    throw new AppError(
      "not_found",
      `No contributor has the id ${JSON.stringify(id)}: take contributor_id from a key ` +
        "(GET /api/v1/admin/keys).",
    );
  }
  return id;
}
