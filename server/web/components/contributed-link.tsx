/** A link to a URL a contributor gave: rendered only for http(s), never followed for ranking. */
import type { Child, FC } from "hono/jsx";
import { CONTRIBUTED_LINK_REL, httpUrl } from "../safe-url.ts";

export const ContributedLink: FC<{ href: string | null; children?: Child }> = (
  { href, children },
) => {
  const url = httpUrl(href);
  return url ? <a href={url} rel={CONTRIBUTED_LINK_REL}>{children}</a> : <>{children}</>;
};
