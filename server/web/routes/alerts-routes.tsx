/**
 * The site's alerts: "My alerts" (/alerts) with pause, resume, test and delete, and "Save this
 * search" (/alerts/new, from the search page's query). The same rules as the API
 * (server/alerts/saved-search-rules.ts) decide every save.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm, field } from "../../accounts/csrf.ts";
import { isEmailConfirmed } from "../../db/email-confirmations.ts";
import { recentDeliveries } from "../../db/alert-deliveries.ts";
import { deleteSavedSearch, listSavedSearches } from "../../db/saved-searches.ts";
import { addTestNotice } from "../../db/notices.ts";
import {
  createSavedSearch,
  linkBase,
  patchSavedSearch,
  savedSearchView,
} from "../../alerts/saved-search-rules.ts";
import { EMAIL_MODES, SavedFilters } from "../../api/saved-search-schemas.ts";
import { MATCHED_FILTERS } from "../../db/saved-search-match.ts";
import { AppError } from "../../errors.ts";
import { siteOrigin } from "../../request-origin.ts";
import { isUuid } from "../../uuid.ts";
import { renderDocument } from "../components/layout.tsx";
import { AlertsPage, NewAlertPage } from "../pages/alerts-page.tsx";
import { noticesOf } from "../page-notices.ts";
import { pageContext } from "../site-context.ts";
import { requireViewer } from "./dashboard-routes.tsx";

const NOTICES: Record<string, string> = {
  saved: "Saved: events that match it from now on are told of.",
  paused: "Paused: nothing is told until you resume it.",
  resumed: "Resumed.",
  tested: "A test notice is on its way through the search's webhook and mail.",
  deleted: "Deleted.",
  confirmation: "A confirmation link is on its way to your address.",
};

/** GET /alerts */
export function alertsRoute(c: Context<AppEnv>): Promise<Response> {
  return renderAlerts(c, []);
}

/** The alerts page, with `extra` notices (a save's webhook secret). */
async function renderAlerts(c: Context<AppEnv>, extra: string[]): Promise<Response> {
  const viewer = requireViewer(c);
  const deps = c.get("deps");
  const searches = await listSavedSearches(deps.db.sql, viewer.contributorId);
  const base = linkBase(deps, siteOrigin(c));
  const rows = await Promise.all(searches.map(async (search) => {
    const view = savedSearchView(search, { base });
    return {
      search,
      feedIcs: view.feed_ics_url,
      feedAtom: view.feed_atom_url,
      deliveries: await recentDeliveries(deps.db.sql, search.id, 5),
    };
  }));
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <AlertsPage
      page={pageContext(c)}
      viewer={viewer}
      rows={rows}
      emailConfirmed={await isEmailConfirmed(deps.db.sql, viewer.accountId)}
      mailAvailable={deps.alerts.mailer !== null}
      notices={[...noticesOf(c, NOTICES), ...extra]}
    />,
  ));
}

/** The filters of a search page's query that a saved search takes, as JSON values. */
function filtersFrom(params: Record<string, string>): Record<string, string | number | boolean> {
  const filters: Record<string, string | number | boolean> = {};
  for (const name of MATCHED_FILTERS) {
    const value = params[name];
    if (value === undefined || value === "") continue;
    filters[name] = value === "true" ? true : value === "false" ? false : value;
  }
  return filters;
}

/** GET /alerts/new?q=…&city=…: the form that saves the search of those parameters. */
export async function newAlertRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const raw = c.req.query();
  const params = Object.fromEntries(
    ["q", ...MATCHED_FILTERS].filter((n) => raw[n]?.trim()).map((n) => [n, raw[n].trim()]),
  );
  return c.html(renderDocument(
    <NewAlertPage
      page={pageContext(c)}
      viewer={viewer}
      params={params}
      problems={[]}
      emailConfirmed={await isEmailConfirmed(c.get("deps").db.sql, viewer.accountId)}
    />,
  ));
}

/** POST /alerts: saves it; the answer shows a webhook secret once. */
export async function saveAlertRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const fields = await checkedForm(c, viewer);
  const params: Record<string, string> = {};
  for (const name of ["q", ...MATCHED_FILTERS]) {
    const value = field(fields, `f_${name}`)?.trim();
    if (value) params[name] = value;
  }
  const deps = c.get("deps");
  const email = field(fields, "email") ?? "off";
  const webhook = field(fields, "webhook_url")?.trim();
  try {
    const filters = SavedFilters.safeParse(filtersFrom(params));
    if (!filters.success) throw new AppError("validation_failed", filters.error.issues[0].message);
    const saved = await createSavedSearch(deps, {
      contributorId: viewer.contributorId,
      request: {
        name: field(fields, "name")?.trim().slice(0, 100) || "Saved search",
        q: params.q ?? null,
        filters: filters.data,
        webhook_url: webhook ? webhook : null,
        email: (EMAIL_MODES as readonly string[]).includes(email)
          ? email as typeof EMAIL_MODES[number]
          : "off",
      },
      origin: siteOrigin(c),
    });
    if (saved.webhook_secret) {
      return renderAlerts(c, [
        `Saved. The webhook's signing secret, shown only now: ${saved.webhook_secret}`,
      ]);
    }
    return c.redirect("/alerts?saved=1", 303);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const problems = err.options.details?.map((d) => d.message) ?? [err.message];
    return c.html(
      renderDocument(
        <NewAlertPage
          page={pageContext(c)}
          viewer={viewer}
          params={params}
          problems={problems}
          emailConfirmed={await isEmailConfirmed(deps.db.sql, viewer.accountId)}
        />,
      ),
      400,
    );
  }
}

/** POST /alerts/searches/{id}/(pause|resume|test|delete). */
export function alertActionRoute(action: "pause" | "resume" | "test" | "delete") {
  return async function alertAction(c: Context<AppEnv>): Promise<Response> {
    const viewer = requireViewer(c);
    await checkedForm(c, viewer);
    const id = c.req.param("id") ?? "";
    const deps = c.get("deps");
    const owned = isUuid(id) &&
      (await listSavedSearches(deps.db.sql, viewer.contributorId)).some((s) => s.id === id);
    if (!owned) throw new AppError("not_found", "You have no saved search with that id.");
    if (action === "delete") await deleteSavedSearch(deps.db.sql, viewer.contributorId, id);
    else if (action === "test") {
      await addTestNotice(deps.db.sql, id);
      deps.alerts.wake();
    } else {
      await patchSavedSearch(deps, {
        contributorId: viewer.contributorId,
        id,
        patch: { paused: action === "pause" },
        origin: siteOrigin(c),
        reparse: (filters) => SavedFilters.parse(filters),
      });
    }
    const notice =
      { pause: "paused", resume: "resumed", test: "tested", delete: "deleted" }[action];
    return c.redirect(`/alerts?${notice}=1`, 303);
  };
}
