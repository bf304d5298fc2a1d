/** A table that scrolls sideways on narrow screens, reachable and scrollable by keyboard. */
import type { Child, FC } from "hono/jsx";

export const TableWrap: FC<{ label: string; children?: Child }> = ({ label, children }) => (
  // A scrolling region must take focus so that keyboard users can scroll it.
  <div class="table-wrap" role="region" aria-label={label} tabindex={0}>{children}</div>
);
