/**
 * A table of records: it scrolls sideways on narrow screens, reachable and scrollable by keyboard,
 * and names itself to screen readers by its caption.
 */
import type { Child, FC } from "hono/jsx";

/** A column heading; `hidden` ones (an actions column) are read by screen readers only. */
export type Column = string | { hidden: string };

export const DataTable: FC<{
  /** Names the scrolling region, and the table when it has no visible caption. */
  label: string;
  /** A caption shown above the table; without one the label is its hidden caption. */
  caption?: Child;
  columns: Column[];
  /** The rows. */
  children?: Child;
}> = ({ label, caption, columns, children }) => (
  // A scrolling region must take focus so that keyboard users can scroll it.
  <div class="table-wrap" role="region" aria-label={label} tabindex={0}>
    <table>
      {caption === undefined
        ? <caption class="visually-hidden">{label}</caption>
        : <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">
              {typeof column === "string"
                ? column
                : <span class="visually-hidden">{column.hidden}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
);
