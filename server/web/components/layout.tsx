/** The frame of every page: head, header with navigation, main, footer. */
import type { Child, FC } from "hono/jsx";
import type { PageContext } from "../page-context.ts";

export interface LayoutProps {
  page: PageContext;
  title: string;
  description?: string;
  /** Extra elements for <head>: alternate links, JSON-LD. */
  head?: Child;
  children?: Child;
}

const SITE_NAME = "Tech events";

/** Hidden field carrying the CSRF token; every form that changes something has one. */
export const CsrfField: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name="csrf" value={token} />
);

const Navigation: FC<{ page: PageContext }> = ({ page }) => {
  const viewer = page.viewer;
  if (!viewer) {
    return (
      <nav class="site-nav" aria-label="Main">
        <a href="/">Events</a>
        <a href="/cfp">Calls for papers</a>
        <a href="/sign-in">Sign in</a>
        <a href="/sign-up">Sign up</a>
      </nav>
    );
  }
  return (
    <nav class="site-nav" aria-label="Main">
      <a href="/">Events</a>
      <a href="/cfp">Calls for papers</a>
      <a href="/dashboard">Dashboard</a>
      <a href="/alerts">My alerts</a>
      {viewer.isOperator ? <a href="/review">Review queue</a> : null}
      <form method="post" action="/sign-out">
        <CsrfField token={viewer.csrfToken} />
        <button type="submit" class="link">Sign out</button>
      </form>
    </nav>
  );
};

/** A whole HTML document. */
export const Layout: FC<LayoutProps> = ({ page, title, description, head, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title === SITE_NAME ? title : `${title} · ${SITE_NAME}`}</title>
      {description ? <meta name="description" content={description} /> : null}
      {/* No favicon: an empty one spares every visit a 404. */}
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={page.assets.url("site.css")} />
      <script src={page.assets.url("site.js")} defer></script>
      {head}
    </head>
    <body>
      <a class="skip" href="#main">Skip to content</a>
      <header class="site-header">
        <div class="wrap">
          <a class="brand" href="/">
            Tech <span>events</span>
          </a>
          <Navigation page={page} />
        </div>
      </header>
      <main id="main" class="wrap">{children}</main>
      <footer class="site-footer">
        <div class="wrap">
          <span>Events pushed by their organisers and communities.</span>
          <a href="/api/v1/openapi.json">HTTP API</a>
          <a href="/events.atom">Atom feed</a>
          <a href="/events.ics">Calendar feed</a>
        </div>
      </footer>
    </body>
  </html>
);

/** A full document as a string, with its doctype. */
export function renderDocument(element: unknown): string {
  return `<!DOCTYPE html>${String(element)}`;
}
