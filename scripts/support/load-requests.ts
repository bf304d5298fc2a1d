/**
 * One timed request of a load benchmark, as a well-behaved client sends it: bounded by a timeout,
 * waiting out a 429's Retry-After before sending again, and recorded under its kind.
 */
import type { LoadRecorder } from "./load-recorder.ts";

/** What every client of a run shares. */
export interface LoadContext {
  baseUrl: string;
  recorder: LoadRecorder;
  /** performance.now() after which no client starts a request. */
  until: number;
  /** Aborted on Ctrl-C: requests in flight stop and nothing more is recorded. */
  signal: AbortSignal;
  /** How long one request may take before it counts as a timeout error. */
  timeoutMs: number;
  /** Pause between a reader's requests. */
  thinkMs: number;
}

/** Whether clients may start another request. */
export function running(ctx: LoadContext): boolean {
  return !ctx.signal.aborted && performance.now() < ctx.until;
}

/** Waits `ms` (ending early on Ctrl-C or at the end of the run). */
export async function pause(ctx: LoadContext, ms: number): Promise<void> {
  const left = Math.min(ms, ctx.until - performance.now());
  if (left <= 0 || ctx.signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, left);
    ctx.signal.addEventListener("abort", done);
  });
}

/** Options of send. */
export interface SendOptions {
  kind: string;
  path: string;
  init?: RequestInit;
  /** What is wrong with a 2xx answer's body, or null when it is what was asked for. */
  check?: (body: string) => string | null;
}

/**
 * Sends a request, times it and records the outcome under `kind`; a 429 is waited out and sent
 * again while the run lasts. The body of a good answer, or null.
 */
export async function send(ctx: LoadContext, o: SendOptions): Promise<string | null> {
  while (running(ctx)) {
    const started = performance.now();
    let res: Response;
    let body: string;
    try {
      res = await fetch(`${ctx.baseUrl}${o.path}`, {
        ...o.init,
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.timeoutMs)]),
      });
      body = await res.text();
    } catch (err) {
      if (ctx.signal.aborted) return null;
      const cause = err instanceof DOMException && err.name === "TimeoutError"
        ? "timeout"
        : `network (${err instanceof Error ? err.message.slice(0, 60) : String(err)})`;
      ctx.recorder.record(o.kind, started, { ok: false, cause });
      return null;
    }
    if (res.status === 429) {
      ctx.recorder.record(o.kind, started, { ok: false, rateLimited: true, status: 429 });
      await pause(ctx, retryAfterMs(res.headers.get("Retry-After")));
      continue;
    }
    if (!res.ok) {
      ctx.recorder.record(o.kind, started, { ok: false, cause: String(res.status) });
      return null;
    }
    const problem = checked(o.check, body);
    if (problem !== null) {
      ctx.recorder.record(o.kind, started, { ok: false, cause: problem });
      return null;
    }
    ctx.recorder.record(o.kind, started, { ok: true, status: res.status });
    return body;
  }
  return null;
}

function checked(check: SendOptions["check"], body: string): string | null {
  try {
    return check?.(body) ?? null;
  } catch (err) {
    return `unreadable answer (${err instanceof Error ? err.message.slice(0, 60) : err})`;
  }
}

/** Retry-After in seconds (the server sends whole seconds); a second when absent or odd. */
function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}
