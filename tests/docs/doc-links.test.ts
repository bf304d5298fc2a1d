/** Every relative link and #anchor of README.md and docs/*.md resolves (scripts/check-links.ts). */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { documentationPages, findBrokenLinks } from "../../scripts/check-links.ts";
import { headingSlug, markdownLinks } from "../../scripts/support/markdown-links.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

Deno.test("every relative link and anchor of the README and docs/ resolves", async () => {
  const pages = await documentationPages(root);
  assert.ok(pages.includes("README.md") && pages.includes(join("docs", "api.md")));
  const linkCount = (await Promise.all(
    pages.map(async (page) => markdownLinks(await Deno.readTextFile(join(root, page))).length),
  )).reduce((sum, n) => sum + n, 0);
  assert.ok(linkCount > 20, `only ${linkCount} links found: the reader lost them`);
  assert.deepEqual(await findBrokenLinks(root, pages), []);
});

Deno.test("headings become GitHub's anchors", () => {
  assert.equal(headingSlug("The `events` CLI"), "the-events-cli");
  assert.equal(
    headingSlug("Nightly exports stay in sync (`--sync`)"),
    "nightly-exports-stay-in-sync---sync",
  );
  assert.equal(headingSlug("Keys, scopes and rate limits"), "keys-scopes-and-rate-limits");
  assert.equal(
    headingSlug("AI search: embeddings and pgvector"),
    "ai-search-embeddings-and-pgvector",
  );
  assert.equal(headingSlug("**Bold** [linked](x.md) `is_free`"), "bold-linked-is_free");
  assert.equal(headingSlug("Über die Grüße"), "über-die-grüße");
});

Deno.test("a missing file, a missing anchor and a repeated heading are told apart", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "docs"));
    await Deno.writeTextFile(
      join(dir, "README.md"),
      [
        "# Start",
        "See [the API](docs/api.md#errors), [gone](docs/gone.md) and [nowhere](#nowhere).",
        "The second [Notes](docs/api.md#notes-1) and [a bad one](docs/api.md#notes-2).",
        "Not links: `[code](docs/gone.md)` and [external](https://example.org/x#y).",
        "```md",
        "[in a fence](docs/fenced.md)",
        "```",
        "[ref]: docs/also-gone.md",
      ].join("\n"),
    );
    await Deno.writeTextFile(
      join(dir, "docs", "api.md"),
      "# API\n\n## Errors\n\n## Notes\n\n## Notes\n\n[Up](../README.md#start)\n",
    );
    const broken = await findBrokenLinks(dir, await documentationPages(dir));
    assert.deepEqual(
      broken.map(({ file, line, target, reason }) => `${file}:${line} ${target} ${reason}`),
      [
        "README.md:2 docs/gone.md no such file: docs/gone.md",
        "README.md:2 #nowhere no heading with the anchor #nowhere",
        "README.md:3 docs/api.md#notes-2 no heading with the anchor #notes-2",
        "README.md:8 docs/also-gone.md no such file: docs/also-gone.md",
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
