/** get_event: everything about one event. */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { getEventById } from "../db/event-reads.ts";
import { eventIdArgument, noSuchEvent } from "./event-id-argument.ts";
import { FullEvent, fullEvent, type Site } from "./event-views.ts";
import { strictArguments } from "./strict-arguments.ts";
import { ToolCallError } from "./tool-results.ts";

export const GetEventInput = strictArguments({ id: eventIdArgument });

export const GetEventOutput = z.object({ event: FullEvent });

/** Runs get_event. */
export async function getEventTool(
  deps: AppDeps,
  site: Site,
  args: z.output<typeof GetEventInput>,
): Promise<z.infer<typeof GetEventOutput>> {
  const event = await getEventById(deps.db.sql, args.id);
  if (!event) throw new ToolCallError(noSuchEvent(args.id));
  return { event: fullEvent(event, site) };
}
