/**
 * InFlight: when requests were last in flight (saved-search matching waits on pushes), and a
 * quiet moment to start background work in (federation's publisher on the embedded database).
 */
import assert from "node:assert/strict";
import { InFlight } from "../../server/in-flight.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a push in flight is now; once none is, when the last one ended", async () => {
  const pushes = new InFlight();
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
  const pushes = new InFlight();
  await assert.rejects(pushes.during(() => Promise.reject(new Error("refused"))), /refused/);
  await sleep(20);
  assert.ok(Date.now() - pushes.lastAt() >= 15);
});

Deno.test("quiet resolves at once with none in flight, when the last ends, or at the latest", async () => {
  const requests = new InFlight();
  let t = performance.now();
  await requests.quiet(1_000);
  assert.ok(performance.now() - t < 20);

  const release = Promise.withResolvers<void>();
  const slow = requests.during(() => release.promise);
  const fast = requests.during(() => sleep(5));
  let quiet = false;
  const waiting = requests.quiet(10_000).then(() => quiet = true);
  await fast;
  await sleep(30);
  assert.equal(quiet, false, "one request is still in flight");
  release.resolve();
  await slow;
  await waiting;
  assert.equal(quiet, true);

  const stuck = Promise.withResolvers<void>();
  const never = requests.during(() => stuck.promise);
  t = performance.now();
  await requests.quiet(50);
  const waited = performance.now() - t;
  assert.ok(waited >= 45 && waited < 1_000, `waited ${waited} ms`);
  stuck.resolve();
  await never;
});

Deno.test("quiet with an idle time waits that long after the last request", async () => {
  const requests = new InFlight();
  await requests.during(() => sleep(5));
  const t = performance.now();
  await requests.quiet(5_000, 80);
  const waited = performance.now() - t;
  assert.ok(waited >= 60 && waited < 2_000, `waited ${waited} ms`);
  // A request within the idle time starts the wait again.
  await requests.during(() => sleep(5));
  const started = performance.now();
  const waiting = requests.quiet(5_000, 80);
  await sleep(40);
  await requests.during(() => sleep(5));
  await waiting;
  assert.ok(performance.now() - started >= 110, "the idle time counts from the last request");
});
