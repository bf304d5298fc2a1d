/**
 * Where a webhook may point: a public address only. Loopback, private, link-local (the cloud
 * metadata services among them), shared, multicast and reserved addresses are refused, at save
 * and again at each connection (the name is resolved again and the connection made to the very
 * address checked, so a name that later resolves elsewhere cannot reach inside: no DNS
 * rebinding). WEBHOOKS_ALLOW_PRIVATE lifts this for tests.
 */

/** IPv4 ranges that are not the public internet, as [first octets, prefix length]. */
const PRIVATE_V4: [number[], number][] = [
  [[0], 8], // "this network"
  [[10], 8],
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, 169.254.169.254 metadata
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24], // documentation
  [[192, 168], 16],
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

function v4Number(octets: number[]): number {
  return octets.reduce((n, o) => n * 256 + o, 0);
}

function parseV4(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.map(Number);
}

function privateV4(octets: number[]): boolean {
  const n = v4Number(octets);
  return PRIVATE_V4.some(([start, bits]) => {
    const base = v4Number([...start, 0, 0, 0, 0].slice(0, 4));
    const size = 2 ** (32 - bits);
    return n >= base && n < base + size;
  });
}

/** The 8 groups of an IPv6 address, or null. */
function parseV6(address: string): number[] | null {
  let text = address.toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const o = parseV4(v4Tail[1]);
    if (!o) return null;
    text = text.slice(0, -v4Tail[1].length) +
      `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const side = (s: string) => (s === "" ? [] : s.split(":"));
  const head = side(halves[0]);
  const tail = halves.length === 2 ? side(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array(Math.max(0, fill)).fill("0"), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

function privateV6(g: number[]): boolean {
  const allZeroUpTo = (i: number) => g.slice(0, i).every((x) => x === 0);
  if (allZeroUpTo(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
  if ((allZeroUpTo(5) && g[5] === 0xffff) || (g[0] === 0x64 && g[1] === 0xff9b)) {
    return privateV4([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  }
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local, fd00:ec2::254 metadata
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** Whether `address` (IPv4 or IPv6 literal) is anything but a public internet address. */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseV4(address);
  if (v4) return privateV4(v4);
  const v6 = parseV6(address);
  return v6 === null ? true : privateV6(v6);
}

/** Why a webhook address is refused. */
export class WebhookAddressError extends Error {
  override name = "WebhookAddressError";
}

/** How long a name may take to resolve. */
const LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The addresses the URL's host resolves to, each checked: throws WebhookAddressError when the
 * name does not resolve (within LOOKUP_TIMEOUT_MS) or any address is not public (unless
 * `allowPrivate`).
 */
export async function resolveWebhookHost(
  url: URL,
  options: { allowPrivate: boolean },
): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (parseV4(host) || host.includes(":")) addresses = [host];
  else if (host === "localhost" || host.endsWith(".localhost")) addresses = ["127.0.0.1"];
  else addresses = await lookUp(host);
  if (addresses.length === 0) {
    throw new WebhookAddressError(`The host ${host} of the webhook URL does not resolve.`);
  }
  if (!options.allowPrivate) {
    const inside = addresses.find(isPrivateAddress);
    if (inside !== undefined) {
      throw new WebhookAddressError(
        `The webhook URL's host ${host} resolves to ${inside}, a loopback, private, ` +
          "link-local or reserved address: give a URL on the public internet.",
      );
    }
  }
  return addresses;
}

async function lookUp(host: string): Promise<string[]> {
  const signal = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const found = await Promise.all(
    (["A", "AAAA"] as const).map((type) =>
      Deno.resolveDns(host, type, { signal }).catch(() => [] as string[])
    ),
  );
  return found.flat();
}
