/** A page that only says something: not found, an error, a refused request. */
import type { FC } from "hono/jsx";
import { Layout } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";

export interface MessagePageProps {
  page: PageContext;
  title: string;
  message: string;
}

export const MessagePage: FC<MessagePageProps> = ({ page, title, message }) => (
  <Layout page={page} title={title}>
    <h1>{title}</h1>
    <p>{message}</p>
    <p>
      <a href="/">Back to upcoming events</a>
    </p>
  </Layout>
);
