/** The actors' names: lower-case ASCII, `events` reserved, cities apart from topics. */
import assert from "node:assert/strict";
import { cityHandles, slugOf, topicHandle } from "../../server/federation/actor-names.ts";

Deno.test("a topic's actor is named by its slug, in lower-case ASCII", () => {
  assert.equal(topicHandle("Rust"), "rust");
  assert.equal(topicHandle("Machine Learning"), "machine-learning");
  assert.equal(topicHandle("Kubernetes"), "kubernetes");
  assert.equal(topicHandle("Données ouvertes"), "donnees-ouvertes");
  assert.equal(topicHandle("C++"), "cplusplus");
  assert.equal(topicHandle("C#"), "csharp");
  assert.equal(topicHandle("日本語"), null);
});

Deno.test("no topic takes the name `events` or looks like a city's actor", () => {
  assert.equal(topicHandle("Events"), "topic-events");
  assert.equal(topicHandle("City Hall"), "topic-city-hall");
});

Deno.test("a city's actor is city-<slug>, with its country to tell namesakes apart", () => {
  assert.deepEqual(cityHandles("Portland", "US"), {
    slug: "portland",
    country: "us",
    preferred: "city-portland",
    fallback: "city-portland-us",
  });
  assert.equal(cityHandles("São Paulo", "BR")?.preferred, "city-sao-paulo");
  assert.equal(cityHandles("", "BR"), null);
});

Deno.test("every handle is lower-case ASCII letters, digits and inner hyphens", () => {
  for (
    const text of ["  Hello -- World  ", "Ünïcödé", "a".repeat(200), "--x--", "Ruby on Rails!"]
  ) {
    const slug = slugOf(text);
    assert.match(slug, /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)?$/, text);
    assert.ok(slug.length <= 60);
  }
});
