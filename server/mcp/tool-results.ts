/**
 * How tools answer: a result is its structured content plus the same JSON as text (some clients
 * read only one of them); a problem the caller can fix is an `isError` result saying how; any
 * other failure is logged and reported without internals.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { AppError } from "../errors.ts";
import { logProblem } from "../log-line.ts";

/** A problem with the call itself; its message tells the caller how to change the call. */
export class ToolCallError extends Error {
  override name = "ToolCallError";
}

/** A successful result: structured content and the same JSON as text. */
export function toolResult<T extends Record<string, unknown>>(data: T): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
}

/** An error result the model can read and act on. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Runs a tool's work, turning what goes wrong into error results: the caller's mistakes and the
 * service's known states (such as AI search being unavailable) with their own messages, anything
 * else as a plain apology, logged with the tool's name.
 */
export async function runTool(
  tool: string,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ToolCallError) return toolError(err.message);
    if (err instanceof AppError && err.code !== "internal") return toolError(err.message);
    logProblem({ level: "error", mcp_tool: tool, error: err });
    return toolError(`${tool} failed on the server; try the same call again in a moment.`);
  }
}
