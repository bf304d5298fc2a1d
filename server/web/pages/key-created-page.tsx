/** The one page that ever shows a new key in full, with the first commands to use it. */
import type { FC } from "hono/jsx";
import type { ApiKeyRecord } from "../../db/api-keys.ts";
import { Layout } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";
import { formatInstant } from "../event-times.ts";

export interface KeyCreatedPageProps {
  page: PageContext;
  /** The full key (not `key`, which JSX reserves). */
  apiKey: string;
  record: ApiKeyRecord;
  origin: string;
}

/** The first push, as a curl command: one small event. */
export function firstCurlCommand(origin: string, key: string): string {
  const event = {
    external_id: "my-first-event",
    source_url: "https://example.org/my-first-event",
    title: "My first event",
    starts_at: "2030-05-01T18:00:00Z",
  };
  return [
    `curl -X POST ${origin}/api/v1/events \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${JSON.stringify({ events: [event] })}'`,
  ].join("\n");
}

/** The same with the events CLI, from a calendar file. */
export function firstCliCommand(origin: string, key: string): string {
  return [
    `export EVENTS_API_URL=${origin}`,
    `export EVENTS_API_KEY=${key}`,
    "npx events push my-events.ics   # or .csv, .json; events validate checks a file first",
  ].join("\n");
}

const Copyable: FC<{ id: string; label: string; text: string; secret?: boolean }> = (
  { id, label, text, secret },
) => (
  <div class="stack">
    <pre><code id={id} class={secret ? "secret" : undefined}>{text}</code></pre>
    <button type="button" class="secondary" data-copy-target={id} hidden>{label}</button>
  </div>
);

export const KeyCreatedPage: FC<KeyCreatedPageProps> = ({ page, apiKey, record, origin }) => (
  <Layout page={page} title="Your new key">
    <h1>Your new key: {record.name}</h1>
    <p class="notice" role="status">
      <strong>Copy the key now.</strong>{" "}
      This is the only time it is shown: the service keeps only a digest of it.
      {record.expires_at
        ? ` It expires ${formatInstant(record.expires_at)}.`
        : " It never expires."}
    </p>
    <Copyable id="new-key" label="Copy key" text={apiKey} secret />
    <h2>Push your first event</h2>
    <p>With curl:</p>
    <Copyable id="curl-command" label="Copy command" text={firstCurlCommand(origin, apiKey)} />
    <p>Or with the events CLI (Node 20+), from a calendar, CSV or JSON file:</p>
    <Copyable id="cli-command" label="Copy commands" text={firstCliCommand(origin, apiKey)} />
    <p>
      Your events are listed and text-searchable at once. After your first batch an operator reviews
      it; once the key is trusted, your events also enter AI search.
    </p>
    <p>
      <a href="/dashboard">Back to the dashboard</a>
    </p>
  </Layout>
);
