/** Who is asking: the address rate limits and sign-in throttling count by. */
import type { Context } from "hono";

/** The client's address: the socket peer, or the first X-Forwarded-For hop behind a proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("X-Forwarded-For")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}
