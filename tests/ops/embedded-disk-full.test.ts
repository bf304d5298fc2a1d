/**
 * The embedded database's disk filling up (issue 12): writes get a clear 503 before PGlite meets a
 * full disk (where it hangs for good), reads go on, /healthz says so, nothing acknowledged is
 * lost, and writes are taken again once space is back, without a restart. The data directory is
 * put on a small tmpfs of its own (mounting one needs root, as CI runs; elsewhere the test is
 * reported as ignored).
 */
import assert from "node:assert/strict";
import { statfsSync } from "node:fs";
import { configWith } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { startService } from "../../server/serve.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { sampleEvent } from "../support/events.ts";

const MiB = 2 ** 20;
const DISK_MIB = 160;
const RESERVE_MIB = 48;

async function canMountTmpfs(): Promise<boolean> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  const probe = await Deno.makeTempDir({ prefix: "events-mount-probe-" });
  try {
    const mounted = await run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe]);
    if (mounted) await run("umount", [probe]);
    return mounted;
  } finally {
    await Deno.remove(probe);
  }
}

async function run(command: string, args: string[]): Promise<boolean> {
  const out = await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output();
  return out.success;
}

function freeBytes(dir: string): number {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
}

Deno.test({
  name: "[pglite] a nearly full disk: writes refused with 503, reads served, nothing lost, " +
    "writes taken again once space is back",
  ignore: !(await canMountTmpfs()),
  async fn() {
    const disk = await Deno.makeTempDir({ prefix: "events-disk-full-" });
    assert.ok(await run("mount", ["-t", "tmpfs", "-o", `size=${DISK_MIB}m`, "tmpfs", disk]));
    const template = await createTestDatabase("pglite");
    try {
      const dataDir = `${disk}/data`;
      assert.ok(await run("cp", ["-r", template.dataDir, dataDir]));
      const adminKey = generateApiKey();
      const config = configWith({
        port: 0,
        host: "127.0.0.1",
        dataDir,
        adminApiKey: adminKey,
        defaultRateLimitPerMinute: 60,
        publicRateLimitPerMinute: 10_000,
        trustProxy: false,
        logRequests: false,
        embeddingWorker: "external",
        dataMinFreeBytes: RESERVE_MIB * MiB,
      });
      const service = await startService(config);
      let stopped = false;
      try {
        const api = (path: string, init: RequestInit = {}, key = adminKey) =>
          fetch(`${service.url}${path}`, {
            ...init,
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          });
        const created = await (await api("/api/v1/admin/keys", {
          method: "POST",
          body: JSON.stringify({ contributor: "disk", name: "d", rate_limit_per_minute: 10_000 }),
        })).json();
        const key: string = created.data.key;
        const push = (first: number) =>
          api("/api/v1/events", {
            method: "POST",
            body: JSON.stringify({
              events: Array.from({ length: 20 }, (_, i) => sampleEvent(first + i)),
            }),
          }, key);

        assert.equal((await push(0)).status, 200);

        // Leave less free space than the reserve.
        const filler = `${disk}/filler`;
        const fill = Math.max(0, freeBytes(disk) - (RESERVE_MIB - 8) * MiB);
        assert.ok(await run("fallocate", ["-l", String(fill), filler]));
        assert.ok(freeBytes(disk) < RESERVE_MIB * MiB);

        const refused = await push(20);
        assert.equal(refused.status, 503);
        assert.ok(Number(refused.headers.get("retry-after")) > 0);
        const body = await refused.json();
        assert.equal(body.code, "service_unavailable");
        assert.match(body.message, /disk is nearly full .* nothing was stored/);
        assert.match(body.message, /free disk space where DATA_DIR is/);

        const read = await fetch(`${service.url}/api/v1/events?limit=100&from=2000-01-01`);
        assert.equal(read.status, 200);
        assert.equal((await read.json()).data.length, 20, "reads go on");
        const health = await (await fetch(`${service.url}/healthz`)).json();
        assert.equal(health.status, "degraded");
        assert.equal(health.storage.writes_accepted, false);
        assert.equal(health.storage.min_free_bytes, RESERVE_MIB * MiB);

        // Space is back: the same batch goes through, without a restart.
        await Deno.remove(filler);
        assert.equal((await push(20)).status, 200);
        const healthy = await (await fetch(`${service.url}/healthz`)).json();
        assert.equal(healthy.status, "ok");
        assert.equal(healthy.storage.writes_accepted, true);

        await service.shutdown();
        stopped = true;
        const reopened = await openDatabase({ dataDir });
        try {
          const [{ events }] = await reopened.sql<{ events: number }[]>`
            SELECT count(*)::int AS events FROM events`;
          assert.equal(events, 40, "both acknowledged batches, whole, after a restart");
        } finally {
          await reopened.close();
        }
      } finally {
        if (!stopped) await service.shutdown();
      }
    } finally {
      await run("umount", [disk]);
      await Deno.remove(disk, { recursive: true });
      await template.drop();
    }
  },
});
