/** Writes docs/settings.md from the settings schema: `deno run -A scripts/write-settings-doc.ts`. */
import { SETTINGS_DOC, settingsDocument } from "../dev-support/settings-doc.ts";

await Deno.writeTextFile(SETTINGS_DOC, settingsDocument());
console.log(`Wrote ${SETTINGS_DOC.pathname}`);
