/** `events admin trust|untrust|revoke <key>`. */
import type { ApiSettings } from "../settings.ts";
import type { Terminal } from "../output/terminal.ts";
import { renderPairs } from "../output/tables.ts";
import { adminRequest, keyPath } from "./admin-request.ts";
import { ApiKeyView } from "../../shared/key-schemas.ts";
import { keyPairs } from "./admin-keys.ts";

/** The operator's decisions on a key. */
export type Decision = "trust" | "untrust" | "revoke";

const DONE: Record<Decision, string> = {
  trust: "Trusted: its events now get embeddings and enter AI search.",
  untrust: "Trust withdrawn: its events have left AI search.",
  revoke: "Revoked: the key fails with 401 from its next request on; its events stay visible.",
};

/** Applies a decision and shows the key as it is now. */
export async function decideKey(
  api: ApiSettings,
  decision: Decision,
  ref: string,
  options: { json: boolean },
  terminal: Terminal,
) {
  const key = await adminRequest(api, {
    method: "POST",
    path: keyPath(ref, `/${decision}`),
    answer: ApiKeyView,
  });
  if (options.json) return terminal.out(JSON.stringify(key, null, 2));
  terminal.out(renderPairs(keyPairs(key), terminal.colour));
  terminal.err(DONE[decision]);
}
