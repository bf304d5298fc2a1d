/**
 * The settings: docs/settings.md is what the schema says (regenerate it with
 * `deno run -A scripts/write-settings-doc.ts`), and every unset setting takes the default the
 * document gives.
 */
import assert from "node:assert/strict";
import { SETTINGS_DOC, settingsDocument } from "../../dev-support/settings-doc.ts";
import { loadConfig } from "../../server/config.ts";

Deno.test("docs/settings.md is the table the settings schema makes", async () => {
  const written = await Deno.readTextFile(SETTINGS_DOC);
  assert.equal(
    written,
    settingsDocument(),
    "docs/settings.md is out of date: run deno run -A scripts/write-settings-doc.ts",
  );
});

Deno.test("every unset setting takes its documented default", () => {
  const config = loadConfig({});
  const documented = (name: string) =>
    settingsDocument().split("\n").find((line) => line.startsWith(`| \`${name}\``))?.split("|")[2]
      .trim();
  assert.equal(documented("PORT"), `\`${config.port}\``);
  assert.equal(documented("HOST"), `\`${config.host}\``);
  assert.equal(
    documented("REQUEST_READ_TIMEOUT_SECONDS"),
    `\`${config.requestReadTimeoutMs / 1000}\``,
  );
  assert.equal(documented("DATA_MIN_FREE_MB"), `\`${config.dataMinFreeBytes / 2 ** 20}\``);
  assert.equal(documented("RATE_LIMIT_PER_MINUTE"), `\`${config.defaultRateLimitPerMinute}\``);
  assert.equal(documented("TRUST_PROXY"), `\`${config.trustProxy}\``);
  assert.equal(documented("LOG_REQUESTS"), `\`${config.logRequests}\``);
  assert.equal(documented("EMBEDDINGS_WORKER"), `\`${config.embeddingWorker}\``);
  const matching = config.alerts.matching;
  assert.equal(documented("ALERT_MATCH_IDLE_MS"), `\`${matching.idleMs}\``);
  assert.equal(documented("ALERT_MATCH_MAX_DELAY_SECONDS"), `\`${matching.maxDelayMs / 1000}\``);
  assert.equal(documented("ALERT_MATCH_BATCH"), `\`${matching.batchSize}\``);
  assert.equal(
    loadConfig({ ALERT_MATCH_MAX_DELAY_SECONDS: "30" }).alerts.matching.maxDelayMs,
    30_000,
  );
  assert.equal(config.embeddings.provider, "local");
  assert.equal(loadConfig({ OPENAI_API_KEY: "k" }).embeddings.provider, "openai");
  assert.deepEqual([config.mcpAllowedOrigins, config.operatorEmails], [[], []]);
});
