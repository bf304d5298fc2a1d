/**
 * Password hashing with scrypt (node:crypto) at OWASP's recommended cost: N=2^17, r=8, p=1, a
 * 16-byte random salt per password. The parameters are stored with the hash
 * ("scrypt$ln=17,r=8,p=1$<salt>$<hash>", base64), so raising them later only needs
 * `needsRehash` at the next sign-in.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";

/** The cost used for new hashes. */
export const CURRENT_COST = { log2N: 17, r: 8, p: 1 } as const;

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// Bounds for stored parameters, so a corrupted row cannot make one sign-in take minutes.
const MAX_LOG2N = 20;
const MAX_R = 16;
const MAX_P = 4;

interface Cost {
  log2N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  // scrypt needs 128 * N * r bytes; Node's default limit (32 MiB) is below N=2^17, r=8.
  const maxmem = 256 * N * cost.r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N, r: cost.r, p: cost.p, maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** A new hash of `password` with a fresh salt at the current cost. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, CURRENT_COST);
  const { log2N, r, p } = CURRENT_COST;
  return `scrypt$ln=${log2N},r=${r},p=${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

function parseHash(stored: string): { cost: Cost; salt: Buffer; key: Buffer } | null {
  const match = /^scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/
    .exec(stored);
  if (!match) return null;
  const cost = { log2N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (cost.log2N < 10 || cost.log2N > MAX_LOG2N || cost.r > MAX_R || cost.p > MAX_P) return null;
  return { cost, salt: Buffer.from(match[4], "base64"), key: Buffer.from(match[5], "base64") };
}

/**
 * Whether `password` matches `stored`, and whether the hash should be remade at today's cost.
 * An unreadable stored hash never matches.
 */
export async function verifyPassword(
  password: string,
  stored: string,
): Promise<{ matches: boolean; needsRehash: boolean }> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length !== KEY_LENGTH) return { matches: false, needsRehash: false };
  const key = await derive(password, parsed.salt, parsed.cost);
  const matches = timingSafeEqual(key, parsed.key);
  const { log2N, r, p } = parsed.cost;
  const needsRehash = log2N < CURRENT_COST.log2N || r !== CURRENT_COST.r ||
    p !== CURRENT_COST.p;
  return { matches, needsRehash: matches && needsRehash };
}

let decoy: Promise<string> | undefined;

/**
 * A hash no password matches by chance, at the current cost: checking a password against it
 * takes as long as against a real account's, so a sign-in with an unknown address cannot be told
 * apart by its timing.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomUUID());
  return decoy;
}
