import assert from "node:assert/strict";
import {
  DESCRIPTION_CHARS,
  type EmbeddableEvent,
  embeddingText,
  queryEmbeddingText,
} from "../../server/embeddings/embedding-text.ts";

const base: EmbeddableEvent = {
  title: "Berlin Rust Meetup",
  topics: ["Rust", "systems programming"],
  tags: ["rust", "async"],
  categories: ["Programming"],
  event_type: "meetup",
  city: "Berlin",
  country: "Germany",
  description: "Talks on async Rust.\n\nPizza   provided.",
};

Deno.test("the embedded text holds title, labels without repeats, type, city and description", () => {
  assert.equal(
    embeddingText(base),
    "Berlin Rust Meetup. About Rust, systems programming, async, Programming. meetup in Berlin. " +
      "Talks on async Rust. Pizza provided.",
  );
});

Deno.test("the embedded text leaves out what the event does not have", () => {
  const bare = {
    ...base,
    topics: [],
    tags: [],
    categories: [],
    event_type: null,
    city: null,
    description: null,
  };
  assert.equal(embeddingText(bare), "Berlin Rust Meetup.");
  assert.equal(embeddingText({ ...bare, city: "Lyon" }), "Berlin Rust Meetup. Event in Lyon.");
});

Deno.test("only the start of a long description is embedded, cut between words", () => {
  const description = "word ".repeat(1000);
  const text = embeddingText({ ...base, description });
  const embedded = text.slice(text.indexOf("word"));
  assert.ok(embedded.length <= DESCRIPTION_CHARS);
  assert.ok(embedded.length > DESCRIPTION_CHARS * 0.8);
  assert.ok(embedded.endsWith("word"));
});

Deno.test("fields that do not describe the event do not change its text", () => {
  const withPrice = { ...base, price_min: 10, source_url: "https://example.com/other" };
  assert.equal(embeddingText(withPrice), embeddingText(base));
});

Deno.test("a short query can be worded as events state their topics; a sentence stays as typed", () => {
  assert.equal(queryEmbeddingText("  rust   meetups ", "about"), "About rust meetups.");
  assert.equal(queryEmbeddingText("rust meetups", "plain"), "rust meetups");
  const sentence = "making sure my code does not break when I change it";
  assert.equal(queryEmbeddingText(sentence, "about"), sentence);
});
