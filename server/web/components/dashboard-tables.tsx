/** The dashboard's two tables: the contributor's keys, and their latest events. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import type { KeyWithEvents } from "../../db/contributor-dashboard.ts";
import { DataTable } from "./data-table.tsx";
import { isExpired, KeyStatus } from "./key-status.tsx";
import { formatEventTime, formatInstant } from "../event-times.ts";

export const KeysTable: FC<{ keys: KeyWithEvents[]; now: Date }> = ({ keys, now }) => (
  <DataTable
    label="Your API keys"
    columns={[
      "Name and key",
      "State",
      "Scopes",
      "Created",
      "Last used",
      "Expires",
      "Limit",
      "Events",
      { hidden: "Actions" },
    ]}
  >
    {keys.map((key) => (
      <tr key={key.id}>
        <td>
          {key.name}
          <br />
          <code>{key.prefix}…</code>
        </td>
        <td>
          <KeyStatus keyRecord={key} now={now} />
        </td>
        <td>{key.scopes.join(", ")}</td>
        <td>{formatInstant(key.created_at)}</td>
        <td>{key.last_used_at ? formatInstant(key.last_used_at) : "Never"}</td>
        <td>{key.expires_at ? formatInstant(key.expires_at) : "Never"}</td>
        <td>{key.rate_limit_per_minute}/min</td>
        <td>{key.events}</td>
        <td>
          {key.revoked_at === null && !isExpired(key, now)
            ? (
              <a href={`/dashboard/keys/${key.id}/revoke`}>
                Revoke<span class="visually-hidden">{` ${key.name}`}</span>
              </a>
            )
            : null}
        </td>
      </tr>
    ))}
  </DataTable>
);

export const EventsTable: FC<{ events: StoredEvent[] }> = ({ events }) => (
  <DataTable
    label="Your most recently changed events"
    columns={["Event", "Starts", "Source id", "In AI search", "Changed", { hidden: "Actions" }]}
  >
    {events.map((event) => (
      <tr key={event.id}>
        <td>
          <a href={`/events/${event.id}`}>{event.title}</a>
        </td>
        <td>{formatEventTime(event.starts_at, event.timezone)}</td>
        <td>
          <code>{event.platform}/{event.external_id}</code>
        </td>
        <td>{event.in_ai_search ? "Yes" : "No"}</td>
        <td>{formatInstant(event.updated_at)}</td>
        <td>
          <a href={`/dashboard/events/${event.id}/delete`}>
            Delete<span class="visually-hidden">{` ${event.title}`}</span>
          </a>
        </td>
      </tr>
    ))}
  </DataTable>
);
