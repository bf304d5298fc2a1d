/** The dashboard's two tables: the contributor's keys, and their latest events. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import type { KeyWithEvents } from "../../db/contributor-dashboard.ts";
import { TableWrap } from "./table-wrap.tsx";
import { isExpired, KeyStatus } from "./key-status.tsx";
import { formatEventTime, formatInstant } from "../event-times.ts";

export const KeysTable: FC<{ keys: KeyWithEvents[]; now: Date }> = ({ keys, now }) => (
  <TableWrap label="Your API keys">
    <table>
      <caption class="visually-hidden">Your API keys</caption>
      <thead>
        <tr>
          <th scope="col">Name and key</th>
          <th scope="col">State</th>
          <th scope="col">Scopes</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">Limit</th>
          <th scope="col">Events</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  </TableWrap>
);

export const EventsTable: FC<{ events: StoredEvent[] }> = ({ events }) => (
  <TableWrap label="Your most recently changed events">
    <table>
      <caption class="visually-hidden">Your most recently changed events</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Starts</th>
          <th scope="col">Source id</th>
          <th scope="col">In AI search</th>
          <th scope="col">Changed</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  </TableWrap>
);
