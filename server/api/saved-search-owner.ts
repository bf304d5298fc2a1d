/** Who owns the saved searches a request names: the contributor of its key. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { AppError } from "../errors.ts";

/** The security of every /api/v1/me/searches route. */
export const SEARCHES_SECURITY = [{ bearerAuth: ["searches:write"] }];

/** The key's contributor; a key with none (the operator key) owns no searches. */
export function contributorOf(c: Context<AppEnv>): string {
  const contributorId = c.get("principal").contributorId;
  if (contributorId === null) {
    throw new AppError(
      "forbidden",
      "The operator key owns no saved searches: use a contributor's key with searches:write.",
    );
  }
  return contributorId;
}
