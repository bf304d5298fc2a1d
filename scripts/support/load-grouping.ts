/**
 * How long grouping takes under load: two keys of their own list the same conference, one after
 * the other, about once a second; from the second push's answer the listing is read until it
 * names its twin. Recorded as kind GROUPING_KIND: its latencies are that delay, the bound the docs
 * promise (docs/duplicates.md).
 */
import { type LoadContext, pause, running, send } from "./load-requests.ts";

export const GROUPING_KIND = "grouped after push";

// Reads this far apart while waiting; past the request timeout the wait counts as an error.
const POLL_MS = 50;

/** Pushes twin listings with keys `a` and `b` until the run ends, timing each pair's grouping. */
export async function groupingLoop(ctx: LoadContext, keys: { a: string; b: string }) {
  for (let n = 0; running(ctx); n++) {
    const listing = (key: string, platform: string) => ({
      external_id: `twin-${n}`,
      platform,
      source_url: `https://${platform}.example.org/twins/${n}`,
      title: `Grouping Probe Summit ${n}`,
      starts_at: new Date(Date.UTC(2031, 0, 1 + (n % 3000), 9)).toISOString(),
      city: "Lisbon",
      country: "Portugal",
      description: `Listed by ${key === keys.a ? "the first" : "the second"} key.`,
    });
    const push = (key: string, platform: string) =>
      send(ctx, {
        kind: "push (grouping probe)",
        path: "/api/v1/events",
        init: {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ events: [listing(key, platform)] }),
        },
      });
    if (await push(keys.a, "other") === null || await push(keys.b, "luma") === null) continue;
    await timeGrouping(ctx, n);
    await pause(ctx, 1000);
  }
}

/** From now until the second listing of pair `n` names its twin, recorded under GROUPING_KIND. */
async function timeGrouping(ctx: LoadContext, n: number): Promise<void> {
  const started = performance.now();
  const path = `/api/v1/events?external_id=twin-${n}&platform=luma&from=2030-01-01&collapse=false`;
  while (running(ctx)) {
    const res = await fetch(`${ctx.baseUrl}${path}`, { signal: ctx.signal }).catch(() => null);
    const body = res === null ? null : await res.json().catch(() => null);
    if (body?.data?.[0]?.duplicates?.length > 0) {
      ctx.recorder.record(GROUPING_KIND, started, { ok: true, status: 200 });
      return;
    }
    if (performance.now() - started > ctx.timeoutMs) {
      ctx.recorder.record(GROUPING_KIND, started, { ok: false, cause: "not grouped in time" });
      return;
    }
    await pause(ctx, POLL_MS);
  }
}
