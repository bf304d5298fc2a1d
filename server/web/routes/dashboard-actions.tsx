/**
 * What the dashboard changes: make a key, revoke one, delete events. Each acts only on the
 * viewer's own keys and events; anything else is 404, as if it did not exist.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm } from "../../accounts/csrf.ts";
import { formProblems } from "../../accounts/account-forms.ts";
import { createContributorKey, NewKeyForm } from "../../accounts/dashboard-keys.ts";
import { type ApiKeyRecord, findApiKeyByRef } from "../../db/api-keys.ts";
import { revokeKey } from "../../auth/key-decisions.ts";
import { eventOfContributor } from "../../db/contributor-dashboard.ts";
import { deleteEvent, deleteEventsOfContributor } from "../../db/event-deletes.ts";
import { AppError } from "../../errors.ts";
import { isUuid } from "../../uuid.ts";
import { renderDocument } from "../components/layout.tsx";
import { confirmPage } from "../pages/confirm-page.tsx";
import { KeyCreatedPage } from "../pages/key-created-page.tsx";
import type { Viewer } from "../../accounts/viewer.ts";
import { pageContext } from "../site-context.ts";
import { siteOrigin } from "../../request-origin.ts";
import { renderDashboard, requireViewer } from "./dashboard-routes.tsx";
import { mendGroupsAfterDeletes } from "../../duplicates/regroup.ts";

async function ownKey(c: Context<AppEnv>, viewer: Viewer): Promise<ApiKeyRecord> {
  const id = c.req.param("id") ?? "";
  const key = isUuid(id) ? await findApiKeyByRef(c.get("deps").db.sql, id) : null;
  if (!key || key.contributor_id !== viewer.contributorId) {
    throw new AppError("not_found", "You have no key with that id.");
  }
  return key;
}

async function ownEvent(c: Context<AppEnv>, viewer: Viewer) {
  const id = c.req.param("id") ?? "";
  const event = isUuid(id)
    ? await eventOfContributor(c.get("deps").db.sql, {
      eventId: id,
      contributorId: viewer.contributorId,
    })
    : null;
  if (!event) throw new AppError("not_found", "You have no event with that id.");
  return event;
}

/** POST /dashboard/keys: makes a key and shows it, once. */
export async function createKeyRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const fields = await checkedForm(c, viewer);
  const parsed = NewKeyForm.safeParse(fields);
  const typedName = typeof fields.name === "string" ? fields.name : undefined;
  if (!parsed.success) {
    return await renderDashboard(c, {
      keyForm: { problems: formProblems(parsed.error), name: typedName },
      status: 400,
    });
  }
  const made = await createContributorKey(c.get("deps"), { viewer, form: parsed.data });
  if ("problem" in made) {
    return await renderDashboard(c, {
      keyForm: { problems: [made.problem], name: typedName },
      status: 400,
    });
  }
  // The key is in this page only: no cache may keep it.
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <KeyCreatedPage
      page={pageContext(c)}
      apiKey={made.key}
      record={made.record}
      origin={siteOrigin(c)}
    />,
  ));
}

/** GET /dashboard/keys/{id}/revoke: asks first. */
export async function revokeKeyConfirmRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const key = await ownKey(c, viewer);
  return confirmPage(c, viewer, {
    cancelHref: "/dashboard",
    title: `Revoke the key “${key.name}”?`,
    message:
      `Anything still using ${key.prefix}… gets 401 from its next request on. This cannot be undone; its events stay listed.`,
    action: `/dashboard/keys/${key.id}/revoke`,
    button: "Revoke key",
  });
}

/** POST /dashboard/keys/{id}/revoke: the same revocation as the operator API's. */
export async function revokeKeyRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  await checkedForm(c, viewer);
  const key = await ownKey(c, viewer);
  await revokeKey(c.get("deps"), key, null);
  return c.redirect("/dashboard?revoked=1", 303);
}

/** GET /dashboard/events/{id}/delete: asks first. */
export async function deleteEventConfirmRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const event = await ownEvent(c, viewer);
  return confirmPage(c, viewer, {
    cancelHref: "/dashboard",
    title: `Delete “${event.title}”?`,
    message:
      "It leaves the site, search and feeds at once. Pushing it again later makes a new event.",
    action: `/dashboard/events/${event.id}/delete`,
    button: "Delete event",
  });
}

/** POST /dashboard/events/{id}/delete */
export async function deleteEventRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  await checkedForm(c, viewer);
  const id = c.req.param("id") ?? "";
  const deleted = isUuid(id) &&
    await deleteEvent(c.get("deps").db.sql, id, { contributorId: viewer.contributorId });
  await mendGroupsAfterDeletes(c.get("deps").db.sql);
  if (!deleted) throw new AppError("not_found", "You have no event with that id.");
  return c.redirect("/dashboard?deleted=1", 303);
}

/** GET /dashboard/events/delete-all: asks first. */
export function deleteAllConfirmRoute(c: Context<AppEnv>): Response {
  const viewer = requireViewer(c);
  return confirmPage(c, viewer, {
    cancelHref: "/dashboard",
    title: "Delete all your events?",
    message:
      "Every event your keys pushed leaves the site, search and feeds at once. Your keys stay; pushing again makes new events.",
    action: "/dashboard/events/delete-all",
    button: "Delete all my events",
  });
}

/** POST /dashboard/events/delete-all */
export async function deleteAllRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  await checkedForm(c, viewer);
  await deleteEventsOfContributor(c.get("deps").db.sql, viewer.contributorId);
  await mendGroupsAfterDeletes(c.get("deps").db.sql);
  return c.redirect("/dashboard?deleted=1", 303);
}
