/**
 * The site's two cookies: the session token, and the anonymous visitor's CSRF token (for the
 * sign-in and sign-up forms, before there is a session). Both HttpOnly and SameSite=Lax; over
 * HTTPS both carry the `__Host-` prefix (Secure, Path=/, no Domain), so no subdomain can set them.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { siteOrigin } from "../request-origin.ts";
import { bytesToBase64Url } from "../base64url.ts";

export type CookieName = "session" | "csrf";

function isSecure(c: Context): boolean {
  return siteOrigin(c).startsWith("https:");
}

/** The cookie's value, or undefined. */
export function readCookie(c: Context, name: CookieName): string | undefined {
  return isSecure(c) ? getCookie(c, name, "host") : getCookie(c, name);
}

/** Sets the cookie; `maxAgeSeconds` absent makes it last until the browser closes. */
export function writeCookie(
  c: Context,
  name: CookieName,
  value: string,
  maxAgeSeconds?: number,
): void {
  setCookie(c, name, value, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
    ...(isSecure(c) ? { prefix: "host" as const, secure: true } : {}),
  });
}

/** Removes the cookie from the browser. */
export function clearCookie(c: Context, name: CookieName): void {
  writeCookie(c, name, "", 0);
}

/** A random token of 32 bytes, base64url. */
export function randomToken(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
