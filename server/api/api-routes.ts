/** Every HTTP API route, mounted once with its guards; the OpenAPI document comes from these. */
import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { type Guards, mountEndpoint } from "./mount-endpoint.ts";
import { postEvents, postEventsRoute } from "./post-events.ts";
import { listEventsHandler, listEventsRoute } from "./list-events.ts";
import { getEventHandler, getEventRoute } from "./get-event.ts";
import { deleteEventHandler, deleteEventRoute } from "./delete-event.ts";
import { deleteEventsHandler, deleteEventsRoute } from "./delete-events.ts";
import { myEventsHandler, myEventsRoute } from "./my-events.ts";
import {
  deleteContributorEventsHandler,
  deleteContributorEventsRoute,
} from "./admin-contributor-events.ts";
import { searchHandler, searchRoute } from "./search.ts";
import {
  createKeyHandler,
  createKeyRoute,
  listKeysHandler,
  listKeysRoute,
  revokeKeyHandler,
  revokeKeyRoute,
} from "./admin-keys.ts";
import {
  getKeyHandler,
  getKeyRoute,
  patchKeyHandler,
  patchKeyRoute,
  trustKeyHandler,
  trustKeyRoute,
  untrustKeyHandler,
  untrustKeyRoute,
} from "./admin-key-review.ts";
import { backupHandler, backupRoute } from "./admin-backup.ts";
import {
  notSameEventHandler,
  notSameEventRoute,
  sameEventHandler,
  sameEventRoute,
} from "./admin-duplicates.ts";
import { auditHandler, auditRoute } from "./admin-audit.ts";
import {
  cleanUpContributorHandler,
  cleanUpContributorRoute,
} from "./admin-contributor-clean-up.ts";
import {
  addBlockHandler,
  addBlockRoute,
  listBlocksHandler,
  listBlocksRoute,
  removeBlockHandler,
  removeBlockRoute,
} from "./admin-federation-blocks.ts";
import { healthzHandler, healthzRoute } from "./healthz.ts";
import { createSavedSearchHandler, createSavedSearchRoute } from "./create-saved-search.ts";
import { listSavedSearchesHandler, listSavedSearchesRoute } from "./list-saved-searches.ts";
import { getSavedSearchHandler, getSavedSearchRoute } from "./get-saved-search.ts";
import { patchSavedSearchHandler, patchSavedSearchRoute } from "./patch-saved-search.ts";
import { deleteSavedSearchHandler, deleteSavedSearchRoute } from "./delete-saved-search.ts";
import { testSavedSearchHandler, testSavedSearchRoute } from "./test-saved-search.ts";
import { openApiHandler, openApiRoute } from "./openapi-document.ts";

/** Mounts the API on `app`. */
export function mountApiRoutes(app: OpenAPIHono<AppEnv>, guards: Guards): void {
  const mount = <R extends RouteConfig>(endpoint: { route: R; handler: RouteHandler<R, AppEnv> }) =>
    mountEndpoint(app, guards, endpoint);
  mount({ route: postEventsRoute, handler: postEvents });
  mount({ route: listEventsRoute, handler: listEventsHandler });
  mount({ route: getEventRoute, handler: getEventHandler });
  mount({ route: deleteEventRoute, handler: deleteEventHandler });
  mount({ route: deleteEventsRoute, handler: deleteEventsHandler });
  mount({ route: myEventsRoute, handler: myEventsHandler });
  mount({ route: searchRoute, handler: searchHandler });
  mount({ route: createKeyRoute, handler: createKeyHandler });
  mount({ route: listKeysRoute, handler: listKeysHandler });
  mount({ route: getKeyRoute, handler: getKeyHandler });
  mount({ route: patchKeyRoute, handler: patchKeyHandler });
  mount({ route: trustKeyRoute, handler: trustKeyHandler });
  mount({ route: untrustKeyRoute, handler: untrustKeyHandler });
  mount({ route: revokeKeyRoute, handler: revokeKeyHandler });
  mount({ route: deleteContributorEventsRoute, handler: deleteContributorEventsHandler });
  mount({ route: sameEventRoute, handler: sameEventHandler });
  mount({ route: notSameEventRoute, handler: notSameEventHandler });
  mount({ route: backupRoute, handler: backupHandler });
  mount({ route: cleanUpContributorRoute, handler: cleanUpContributorHandler });
  mount({ route: auditRoute, handler: auditHandler });
  mount({ route: createSavedSearchRoute, handler: createSavedSearchHandler });
  mount({ route: listSavedSearchesRoute, handler: listSavedSearchesHandler });
  mount({ route: getSavedSearchRoute, handler: getSavedSearchHandler });
  mount({ route: patchSavedSearchRoute, handler: patchSavedSearchHandler });
  mount({ route: deleteSavedSearchRoute, handler: deleteSavedSearchHandler });
  mount({ route: testSavedSearchRoute, handler: testSavedSearchHandler });
  mount({ route: listBlocksRoute, handler: listBlocksHandler });
  mount({ route: addBlockRoute, handler: addBlockHandler });
  mount({ route: removeBlockRoute, handler: removeBlockHandler });
  mount({ route: healthzRoute, handler: healthzHandler });
  mount({ route: openApiRoute, handler: openApiHandler(app) });
}
