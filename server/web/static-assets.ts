/**
 * The site's static files (stylesheet, script), read once at start and served from memory with a
 * content hash in their URL, so pages can let browsers cache them for a year.
 */
import type { Context } from "hono";

const FILES = {
  "site.css": "text/css; charset=utf-8",
  "site.js": "text/javascript; charset=utf-8",
} as const;

export type AssetName = keyof typeof FILES;

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  version: string;
}

/** The loaded assets, their versioned URLs, and the handler that serves them. */
export interface StaticAssets {
  /** `/static/<name>?v=<hash>`: changes whenever the file does. */
  url(name: AssetName): string;
  serve(c: Context): Response;
}

async function shortHash(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads every static file of server/web/static/. */
export async function loadStaticAssets(): Promise<StaticAssets> {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(FILES)) {
    const body = await Deno.readFile(new URL(`./static/${name}`, import.meta.url));
    assets.set(name, { body, type, version: await shortHash(body) });
  }
  return {
    url: (name) => `/static/${name}?v=${assets.get(name)!.version}`,
    serve(c) {
      const asset = assets.get(c.req.param("name") ?? "");
      if (!asset) return c.text("No such file.", 404);
      const etag = `"${asset.version}"`;
      const current = c.req.query("v") === asset.version;
      const headers = {
        "Content-Type": asset.type,
        ETag: etag,
        "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
        "X-Content-Type-Options": "nosniff",
      };
      if (c.req.header("If-None-Match") === etag) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(asset.body, { headers });
    },
  };
}
