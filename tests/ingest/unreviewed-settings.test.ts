/** The budgets' settings: read from the environment with defaults, bad values named at start. */
import assert from "node:assert/strict";
import { ConfigError, loadConfig, unreviewedBudgets } from "../../server/config.ts";

Deno.test("the budgets of unreviewed contributors default to 1000 events, 3 keys, 10 a minute", () => {
  assert.deepEqual(unreviewedBudgets(loadConfig({})), {
    maxUpcomingEvents: 1000,
    maxKeys: 3,
    rateLimitPerMinute: 10,
  });
});

Deno.test("the budgets are read from UNREVIEWED_* settings", () => {
  const config = loadConfig({
    UNREVIEWED_MAX_UPCOMING_EVENTS: "250",
    UNREVIEWED_MAX_KEYS: "1",
    UNREVIEWED_RATE_LIMIT_PER_MINUTE: "5",
  });
  assert.deepEqual(unreviewedBudgets(config), {
    maxUpcomingEvents: 250,
    maxKeys: 1,
    rateLimitPerMinute: 5,
  });
});

Deno.test("a budget that is not a positive whole number stops the start and names the setting", () => {
  assert.throws(
    () => loadConfig({ UNREVIEWED_MAX_KEYS: "three" }),
    (err: Error) =>
      err instanceof ConfigError &&
      /UNREVIEWED_MAX_KEYS must be a positive whole number, got "three"/.test(err.message),
  );
  assert.throws(() => loadConfig({ UNREVIEWED_MAX_UPCOMING_EVENTS: "0" }), ConfigError);
});
