/**
 * The vectors the embedding worker would store for the evaluation's listings, made with the local
 * model (Universal Sentence Encoder lite) from the same text (embeddingText). Making them takes
 * minutes on this machine's cores, so they are kept in a cache file outside the repository, keyed
 * by the model and each text's SHA-256: a text never embedded before is embedded again.
 */
import { EventInput } from "../../shared/event-schema.ts";
import { embeddingText } from "../../server/embeddings/embedding-text.ts";
import { LocalProvider } from "../../server/embeddings/local-provider.ts";
import type { SourceEvent } from "./duplicate-sources.ts";

const BATCH = 64;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The text the worker embeds for a pushed listing. */
export function listingText(e: SourceEvent): string {
  const r = EventInput.parse(e);
  return embeddingText({
    title: r.title,
    topics: r.topics ?? [],
    tags: r.tags ?? [],
    categories: r.categories ?? [],
    event_type: r.event_type ?? null,
    city: r.city ?? null,
    country: r.country ?? null,
    description: r.description ?? null,
  });
}

/** Each listing's vector by external id, from `cacheFile` where it holds them. */
export async function listingVectors(
  events: SourceEvent[],
  o: { cacheFile: string; log?: (m: string) => void },
): Promise<Map<string, number[]>> {
  const provider = new LocalProvider({ niceness: 0 });
  let cache: Record<string, number[]> = {};
  try {
    cache = JSON.parse(await Deno.readTextFile(o.cacheFile));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const keyed = await Promise.all(events.map(async (e) => {
    const text = listingText(e);
    return { id: e.external_id, text, key: `${provider.model}:${await sha256(text)}` };
  }));
  const missing = [...new Map(keyed.filter((k) => !cache[k.key]).map((k) => [k.key, k])).values()];
  try {
    for (let i = 0; i < missing.length; i += BATCH) {
      const slice = missing.slice(i, i + BATCH);
      const vectors = await provider.embed(slice.map((k) => k.text));
      slice.forEach((k, n) => (cache[k.key] = vectors[n]));
      if (i % (BATCH * 10) === 0) o.log?.(`embedded ${i + slice.length} of ${missing.length}`);
    }
  } finally {
    await provider.close();
  }
  if (missing.length > 0) await Deno.writeTextFile(o.cacheFile, JSON.stringify(cache));
  return new Map(keyed.map((k) => [k.id, cache[k.key]]));
}
