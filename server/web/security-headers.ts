/** Security headers of every site response: a strict CSP (no inline script) and the usual set. */
import { secureHeaders } from "hono/secure-headers";
import type { MiddlewareHandler } from "hono";

/**
 * Scripts and styles come only from our own /static files. Images may come from contributors'
 * https hosts (cover images). Forms post only to us; no framing, no <base>, no plugins.
 */
export function siteSecurityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "https:", "data:"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  });
}
