/** A page that only says something: not found, an error, a refused request. */
import type { FC } from "hono/jsx";
import { Layout } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";

export interface MessagePageProps {
  page: PageContext;
  title: string;
  message: string;
  /** Offer a search of the events (where what was asked for is not there). */
  search?: boolean;
}

export const MessagePage: FC<MessagePageProps> = ({ page, title, message, search }) => (
  <Layout page={page} title={title}>
    <h1>{title}</h1>
    <p>{message}</p>
    {search && (
      <form method="get" action="/" role="search" aria-label="Events" class="message-search">
        <label for="message-q">Search events</label>
        <input id="message-q" name="q" type="search" maxlength={500} />
        <button type="submit">Search</button>
      </form>
    )}
    <p>
      <a href="/">Back to upcoming events</a>
    </p>
  </Layout>
);
