/** The one check every link written by a contributor passes before the site renders it. */

/** The URL when it is an absolute http(s) URL, else null: nothing else becomes a link. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value || !/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
      ? url.href
      : null;
  } catch {
    return null;
  }
}

/** rel of every link to a contributor's URL: no ranking credit, no window.opener. */
export const CONTRIBUTED_LINK_REL = "nofollow ugc noopener";
