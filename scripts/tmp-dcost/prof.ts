import { benchEvents } from "../support/duplicate-bench-events.ts";
import { matchFactsOf } from "../../server/duplicates/match-facts.ts";
import { titleParts, acronymWords, otherNames } from "../../server/duplicates/normalise-title.ts";
import { cityKey, countryKey } from "../../server/duplicates/normalise-place.ts";
import { addressKeys } from "../../server/duplicates/normalise-url.ts";
import { storedKeys, probeKeys, factsFingerprint } from "../../server/duplicates/lookup-keys.ts";
const evs = benchEvents(0, 5000, "realistic").map((e, i) => ({ id: String(i), title: e.title, source_url: e.source_url, starts_at: e.starts_at, ends_at: e.ends_at ?? null, city: e.city ?? null, country: e.country ?? null, latitude: e.latitude ?? null, longitude: e.longitude ?? null, is_virtual: e.is_virtual ?? false, is_hybrid: e.is_hybrid ?? null }));
const t = (name: string, f: (e: typeof evs[0]) => unknown) => {
  for (let r = 0; r < 3; r++) { const s = performance.now(); for (const e of evs) f(e); const d = performance.now() - s; if (r == 2) console.log(name, (d * 1000 / evs.length).toFixed(1), "µs"); }
};
t("matchFactsOf", (e) => matchFactsOf(e as never));
t("titleParts", (e) => titleParts(e.title));
t("acronymWords", (e) => acronymWords(e.title));
t("otherNames", (e) => otherNames(e.title, 3));
t("cityKey", (e) => cityKey(e.city));
t("countryKey", (e) => countryKey(e.country));
t("addressKeys", (e) => addressKeys(e.source_url));
const facts = evs.map((e) => matchFactsOf(e as never));
let i = 0;
t("storedKeys", () => storedKeys(facts[i++ % facts.length]));
t("probeKeys", () => probeKeys(facts[i++ % facts.length]));
t("fingerprint", () => factsFingerprint(facts[i++ % facts.length]));
