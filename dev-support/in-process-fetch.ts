/**
 * `fetch` for tests: a URL of an in-process test app (startTestApp) goes straight to its
 * `app.fetch`, as Hono's own tests call `app.request()`; any other URL goes over the network. So a
 * helper that takes a base URL serves both a listening test server and an in-process app.
 */

/** What Deno.serve gives a handler as its second argument; the app reads the client address. */
export interface ConnInfo {
  remoteAddr: Deno.NetAddr;
}

/** RequestInit, plus the client address the request comes from (default 127.0.0.1). */
export interface TestRequestInit extends RequestInit {
  clientAddress?: string;
}

type AppFetch = (request: Request, info: ConnInfo) => Response | Promise<Response>;

const apps = new Map<string, AppFetch>();
let registered = 0;

/** Gives `appFetch` an origin of its own (never resolvable: `.test`); unregister when done. */
export function registerInProcessApp(appFetch: AppFetch): { url: string; unregister(): void } {
  const url = `http://app-${++registered}.in-process.test`;
  apps.set(url, appFetch);
  return { url, unregister: () => apps.delete(url) };
}

/** Whether `url` names an in-process app. */
export function isInProcess(url: string | URL): boolean {
  return apps.has(new URL(url).origin);
}

/**
 * The request as a client's fetch would send it: with Host, Accept and, when the body's length is
 * known, Content-Length (a streamed body stays unsized, as a chunked upload).
 */
async function asSent(input: string | URL | Request, init: RequestInit): Promise<Request> {
  const request = new Request(input, init);
  const headers = new Headers(request.headers);
  const url = new URL(request.url);
  if (!headers.has("host")) headers.set("host", url.host);
  if (!headers.has("accept")) headers.set("accept", "*/*");
  if (!headers.has("accept-language")) headers.set("accept-language", "*");
  if (!headers.has("user-agent")) headers.set("user-agent", `Deno/${Deno.version.deno}`);
  const streamed = init.body instanceof ReadableStream ||
    (input instanceof Request && init.body === undefined);
  if (request.body === null || streamed) {
    return new Request(request, { headers });
  }
  const bytes = await request.arrayBuffer();
  if (!headers.has("content-length")) headers.set("content-length", String(bytes.byteLength));
  return new Request(request.url, {
    method: request.method,
    headers,
    body: bytes,
    redirect: request.redirect,
    signal: request.signal,
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/**
 * Sends a request to the in-process app its URL names, or over the network otherwise. Redirects
 * are followed within the app unless `redirect` says otherwise, as fetch does.
 */
export async function testFetch(
  input: string | URL | Request,
  init: TestRequestInit = {},
): Promise<Response> {
  const { clientAddress, ...requestInit } = init;
  const url = input instanceof Request ? input.url : String(input);
  const appFetch = apps.get(new URL(url).origin);
  if (appFetch === undefined) return await fetch(input, requestInit);
  const info = {
    remoteAddr: { transport: "tcp" as const, hostname: clientAddress ?? "127.0.0.1", port: 40000 },
  };
  let request = await asSent(input, requestInit);
  for (let hop = 0;; hop++) {
    const response = await appFetch(request, info);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null || request.redirect !== "follow") {
      return response;
    }
    if (hop === MAX_REDIRECTS) throw new TypeError(`Cannot fetch ${url}: too many redirects`);
    await response.body?.cancel();
    const next = new URL(location, request.url);
    if (!apps.has(next.origin)) return await fetch(next, { headers: requestInit.headers });
    // As fetch does: a 303, or a 301/302 after a POST, becomes a GET without a body.
    const toGet = response.status === 303 ||
      ([301, 302].includes(response.status) && request.method === "POST");
    if (!toGet && !["GET", "HEAD"].includes(request.method)) {
      throw new TypeError(
        `Cannot follow a ${response.status} of ${request.method} ${url} in-process (the body is ` +
          'spent): pass redirect: "manual"',
      );
    }
    const headers = new Headers(request.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    headers.delete("host");
    request = await asSent(next, { method: toGet ? "GET" : request.method, headers });
  }
}
