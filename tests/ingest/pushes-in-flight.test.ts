/** PushesInFlight: when pushes were last in flight, which saved-search matching waits on. */
import assert from "node:assert/strict";
import { PushesInFlight } from "../../server/events/pushes-in-flight.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a push in flight is now; once none is, when the last one ended", async () => {
  const pushes = new PushesInFlight();
  assert.equal(pushes.lastAt(), 0);
  const release = Promise.withResolvers<void>();
  const first = pushes.during(() => release.promise);
  const second = pushes.during(() => sleep(5));
  await second;
  await sleep(30);
  // The first is still in flight: the second ending is no pause.
  assert.ok(Date.now() - pushes.lastAt() < 10);
  release.resolve();
  await first;
  const ended = pushes.lastAt();
  await sleep(30);
  assert.equal(pushes.lastAt(), ended);
  assert.ok(Date.now() - ended >= 25);
});

Deno.test("a push that fails ends too", async () => {
  const pushes = new PushesInFlight();
  await assert.rejects(pushes.during(() => Promise.reject(new Error("refused"))), /refused/);
  await sleep(20);
  assert.ok(Date.now() - pushes.lastAt() >= 15);
});
