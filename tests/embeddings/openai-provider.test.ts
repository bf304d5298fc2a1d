import assert from "node:assert/strict";
import { OpenAIProvider } from "../../server/embeddings/openai-provider.ts";
import { EmbeddingProviderError } from "../../server/embeddings/provider.ts";
import { fakeVector, startFakeOpenAI } from "../../dev-support/fake-openai.ts";

function near(actual: number[], expected: ArrayLike<number>) {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) < 1e-6);
}

async function expectProviderError(promise: Promise<unknown>): Promise<EmbeddingProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EmbeddingProviderError, `expected EmbeddingProviderError: ${error}`);
    return error;
  }
  assert.fail("expected the call to fail");
}

Deno.test("the openai provider reads base64 vectors, one per text in order", async () => {
  const fake = startFakeOpenAI();
  try {
    const provider = new OpenAIProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    const texts = ["Rust meetup in Berlin", "Kubernetes workshop", "AI conference"];
    const vectors = await provider.embed(texts);
    assert.equal(fake.requests.length, 1);
    assert.equal(fake.requests[0].encodingFormat, "base64");
    assert.equal(fake.requests[0].model, "text-embedding-3-small");
    assert.deepEqual(fake.requests[0].input, texts);
    assert.equal(provider.model, "openai:text-embedding-3-small:1536");
    texts.forEach((t, i) => near(vectors[i], fakeVector(t, 1536)));
  } finally {
    await fake.close();
  }
});

Deno.test("the openai provider reads float vectors when told to use that encoding", async () => {
  const fake = startFakeOpenAI();
  try {
    const provider = new OpenAIProvider({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      encodingFormat: "float",
    });
    const [vector] = await provider.embed(["GraphQL night"]);
    assert.equal(fake.requests[0].encodingFormat, "float");
    near(vector, fakeVector("GraphQL night", 1536));
  } finally {
    await fake.close();
  }
});

Deno.test("the openai provider asks for the configured model and size and names both", async () => {
  const fake = startFakeOpenAI();
  try {
    const provider = new OpenAIProvider({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      model: "text-embedding-3-large",
      dimensions: 256,
    });
    const [vector] = await provider.embed(["Postgres internals"]);
    assert.equal(fake.requests[0].model, "text-embedding-3-large");
    assert.equal(fake.requests[0].dimensions, 256);
    assert.equal(provider.model, "openai:text-embedding-3-large:256");
    assert.equal(vector.length, 256);
    assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-6);
  } finally {
    await fake.close();
  }
});

Deno.test("a 429 with Retry-After is a retryable error carrying the wait, after one request", async () => {
  const fake = startFakeOpenAI();
  try {
    const provider = new OpenAIProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    fake.failNext(1, { status: 429, retryAfter: 7, code: "rate_limit_exceeded" });
    const error = await expectProviderError(provider.embed(["hello"]));
    assert.equal(error.retryable, true);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 7000);
    // Our worker does the retrying: LangChain must not have tried again on its own.
    assert.equal(fake.requests.length, 1);
    assert.equal((await provider.embed(["hello"])).length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("a 500 is a retryable error and is not retried inside the client", async () => {
  const fake = startFakeOpenAI();
  try {
    const provider = new OpenAIProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    fake.failNext(2, { status: 500 });
    const error = await expectProviderError(provider.embed(["hello"]));
    assert.equal(error.retryable, true);
    assert.equal(error.status, 500);
    assert.equal(fake.requests.length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("a wrong API key and an exhausted quota are errors that retrying will not fix", async () => {
  const fake = startFakeOpenAI();
  try {
    const wrongKey = new OpenAIProvider({ apiKey: "sk-wrong", baseUrl: fake.baseUrl });
    const auth = await expectProviderError(wrongKey.embed(["hello"]));
    assert.equal(auth.retryable, false);
    assert.equal(auth.status, 401);

    const provider = new OpenAIProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    fake.failNext(1, { status: 429, code: "insufficient_quota" });
    const quota = await expectProviderError(provider.embed(["hello"]));
    assert.equal(quota.retryable, false);
  } finally {
    await fake.close();
  }
});

Deno.test("an unreachable server is a retryable error", async () => {
  const fake = startFakeOpenAI();
  const baseUrl = fake.baseUrl;
  await fake.close();
  const provider = new OpenAIProvider({ apiKey: "sk-x", baseUrl });
  const error = await expectProviderError(provider.embed(["hello"]));
  assert.equal(error.retryable, true);
  assert.equal(error.status, undefined);
});

Deno.test("a model of unknown size is refused at construction without EMBEDDINGS_DIMENSIONS", () => {
  assert.throws(
    () => new OpenAIProvider({ apiKey: "sk-x", model: "nomic-embed-text" }),
    /EMBEDDINGS_DIMENSIONS/,
  );
  const provider = new OpenAIProvider({
    apiKey: "sk-x",
    model: "nomic-embed-text",
    dimensions: 768,
  });
  assert.equal(provider.model, "openai:nomic-embed-text:768");
});
