/**
 * A slice of the duplicates evaluation (scripts/eval-duplicates.ts) on every run: the three
 * public lists' conferences of spring 2025, each list pushed with its own key over the real
 * service, scored against the labelled pairs.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestApp } from "../../dev-support/test-server.ts";
import { duplicateSources } from "../../scripts/support/duplicate-sources.ts";
import { readLabels, score, servicePairs } from "../../scripts/support/duplicate-eval.ts";

const inSlice = (e: { starts_at: string }) =>
  e.starts_at >= "2025-03-01" && e.starts_at < "2025-07-01";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] spring 2025 of three conference lists: the service groups the labelled pairs and no hard negative`, async () => {
    const sources = (await duplicateSources()).map((s) => ({
      ...s,
      events: s.events.filter(inSlice),
    }));
    const labels = await readLabels(sources.flatMap((s) => s.events));
    assert.ok(labels.positives.size >= 15, `only ${labels.positives.size} labelled pairs`);
    assert.ok(labels.hardNegatives.size >= 20, `only ${labels.hardNegatives.size} hard negatives`);
    const server = await startTestApp(kind, { embeddingWorker: "external" });
    try {
      const s = score(await servicePairs(server, { sources, trusted: false }), labels);
      assert.ok(s.precision >= 0.97, `precision ${s.precision}: ${s.falsePositives.join(", ")}`);
      assert.ok(s.recall >= 0.9, `recall ${s.recall}: missed ${s.missed.join(", ")}`);
      assert.ok(s.hardMerged <= labels.hardNegatives.size * 0.01, `${s.hardMerged} merged`);
    } finally {
      await server.close();
    }
  });
}
