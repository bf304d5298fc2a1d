/**
 * CSRF protection of every form: Hono's `csrf` middleware (the request must come from our own
 * origin, by Origin or Sec-Fetch-Site) and a token in the form that must match the session's (or,
 * before sign-in, the visitor's CSRF cookie).
 */
import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";
import { AppError } from "../errors.ts";
import { siteOrigin } from "../request-origin.ts";
import type { Viewer } from "./viewer.ts";
import { randomToken, readCookie, writeCookie } from "./cookies.ts";

/** The largest form body the site reads: its forms hold a few short fields. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Refuses form posts from other origins (403) and bodies over MAX_FORM_BYTES (413), unread. */
export function sameOriginForms(): MiddlewareHandler {
  return every(
    csrf({
      origin: (origin, c) => origin === siteOrigin(c),
      secFetchSite: (value) => value === "same-origin",
    }),
    bodyLimit({
      maxSize: MAX_FORM_BYTES,
      onError: () => {
        throw new AppError(
          "payload_too_large",
          `The form is larger than ${MAX_FORM_BYTES} bytes; shorten what you typed and send it again.`,
        );
      },
    }),
  );
}

/** The token to put in a form: the session's, or the anonymous visitor's (set when missing). */
export function formToken(c: Context, viewer: Viewer | null): string {
  if (viewer) return viewer.csrfToken;
  const existing = readCookie(c, "csrf");
  if (existing && existing.length === 43) return existing;
  const token = randomToken();
  writeCookie(c, "csrf", token);
  return token;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A posted form: one string per field, or several for a field sent more than once. */
export type FormFields = Record<string, string | string[]>;

/** The field's value when sent once, else undefined. */
export function field(fields: FormFields, name: string): string | undefined {
  const value = fields[name];
  return typeof value === "string" ? value : undefined;
}

/** The posted form's fields (files dropped), once the token in it matched. */
export async function checkedForm(c: Context, viewer: Viewer | null): Promise<FormFields> {
  const body = await c.req.parseBody({ all: true });
  const fields: FormFields = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") fields[name] = value;
    else if (Array.isArray(value)) {
      fields[name] = value.filter((v): v is string => typeof v === "string");
    }
  }
  const expected = viewer ? viewer.csrfToken : readCookie(c, "csrf");
  const token = field(fields, "csrf");
  if (!expected || !token || !sameToken(token, expected)) {
    throw new AppError(
      "forbidden",
      "This form has expired or did not come from this site. Reload the page and send it again.",
    );
  }
  return fields;
}
