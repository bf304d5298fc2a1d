/** `events admin review <key>`: a key and its first batch, for the trust decision. */
import type { ApiSettings } from "../settings.ts";
import type { Terminal } from "../output/terminal.ts";
import { cell, renderPairs, renderTable } from "../output/tables.ts";
import { adminRequest, keyPath } from "./admin-request.ts";
import { KeyReview } from "../../shared/key-schemas.ts";
import { keyPairs } from "./admin-keys.ts";

/** Shows the key and its first batch as a table. */
export async function reviewKey(
  api: ApiSettings,
  ref: string,
  options: { json: boolean },
  terminal: Terminal,
) {
  const key = await adminRequest(api, { method: "GET", path: keyPath(ref), answer: KeyReview });
  if (options.json) return terminal.out(JSON.stringify(key, null, 2));
  terminal.out(renderPairs(keyPairs(key), terminal.colour));
  if (!key.first_batch) {
    terminal.out("No batch received from this key yet: nothing to review.");
    return;
  }
  const events = key.first_batch.events;
  terminal.out(`First batch, received ${key.first_batch.received_at}: ${events.length} event(s)`);
  terminal.out(renderTable(
    ["title", "starts_at", "city", "source_url", "external_id", "platform"],
    events.map((e) => [
      cell(e.title, 40),
      cell(e.starts_at, 24),
      cell(e.city, 20),
      cell(e.source_url, 40),
      cell(e.external_id, 30),
      cell(e.platform, 12),
    ]),
    terminal.colour,
  ));
  terminal.err(`Decide with: events admin trust ${key.prefix}  (or untrust, or revoke)`);
}
