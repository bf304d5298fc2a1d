import assert from "node:assert/strict";
import {
  API_KEY_PREFIX,
  DISPLAY_PREFIX_LENGTH,
  displayPrefix,
  generateApiKey,
  isWellFormedApiKey,
} from "../../shared/api-key-format.ts";

Deno.test("a generated key has the evk_ prefix, 38 base62 characters and a valid checksum", () => {
  const key = generateApiKey();
  assert.match(key, /^evk_[0-9A-Za-z]{38}$/);
  assert.ok(key.startsWith(API_KEY_PREFIX));
  assert.ok(isWellFormedApiKey(key));
});

Deno.test("generated keys do not repeat and use the whole alphabet", () => {
  const keys = Array.from({ length: 2000 }, generateApiKey);
  assert.equal(new Set(keys).size, keys.length);
  const seen = new Set(keys.flatMap((k) => [...k.slice(4, 36)]));
  assert.equal(seen.size, 62);
});

Deno.test("any change of one character is caught by the checksum", () => {
  const key = generateApiKey();
  for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
    for (const c of ["0", "Z", "z"]) {
      if (key[i] === c) continue;
      const typo = key.slice(0, i) + c + key.slice(i + 1);
      assert.ok(!isWellFormedApiKey(typo), `a typo at ${i} passed`);
    }
  }
});

Deno.test("keys of the wrong shape are not well-formed", () => {
  const key = generateApiKey();
  for (
    const bad of [
      "",
      "evk_",
      key.slice(0, -1),
      `${key}0`,
      key.replace("evk_", "EVK_"),
      key.replace("evk_", "sk_"),
      ` ${key}`,
      `${key}\n`,
      key.slice(0, 10) + "-" + key.slice(11),
    ]
  ) {
    assert.ok(!isWellFormedApiKey(bad), JSON.stringify(bad));
  }
});

Deno.test("the display prefix is evk_ and 8 characters, and tells keys apart", () => {
  const key = generateApiKey();
  assert.equal(displayPrefix(key), key.slice(0, 12));
  assert.equal(DISPLAY_PREFIX_LENGTH, 12);
  assert.match(displayPrefix(key), /^evk_[0-9A-Za-z]{8}$/);
});
