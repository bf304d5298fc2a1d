/**
 * docs/settings.md, made from the settings schema (server/config.ts): each environment variable
 * with its default and meaning, so the table cannot drift from what the server reads.
 * `deno run -A scripts/write-settings-doc.ts` rewrites it; tests/ops/settings-doc.test.ts fails
 * when it differs.
 */
import { type SettingDoc, SettingsSchema } from "../server/config.ts";

/** Where the document lives. */
export const SETTINGS_DOC = new URL("../docs/settings.md", import.meta.url);

/** The whole document's text. */
export function settingsDocument(): string {
  const rows = Object.entries(SettingsSchema.shape).map(([name, schema]) => {
    const doc = schema.meta() as SettingDoc | undefined;
    if (!doc?.description || !doc.default) {
      throw new Error(`Cannot document ${name}: give it .meta({ description, default })`);
    }
    return [`\`${name}\``, doc.default, doc.description];
  });
  const header = ["Variable", "When unset", "Meaning"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [
    "# Settings",
    "",
    "<!-- Written by scripts/write-settings-doc.ts from server/config.ts: edit the schema there. -->",
    "",
    // Wrapped at 100 columns, as deno fmt wraps it.
    "The server and the embedding worker read these environment variables once, at start, and " +
    "refuse to",
    "start with a message naming the variable when one is wrong. Empty counts as unset.",
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
  ].join("\n");
}
