export type Send = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Attempts after the first, on 429 and 503 only (default 2; 0 turns retrying off). */
  retries?: number;
  /** The longest wait honoured, in seconds (default 30): a `Retry-After` beyond it answers the 429/503 at once. */
  maxDelaySeconds?: number;
  /** How to wait that many milliseconds (default setTimeout); tests pass a recorder. */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** Busy answers worth waiting for: rate limited (429) and unavailable (503); nothing else is retried. */
const RETRYABLE = new Set([429, 503]);
const BACKOFF_MS = 500;

/**
 * How long to wait before attempt `attempt + 1`: the `Retry-After` header (RFC 9110: delta-seconds or an HTTP-date),
 * else 0.5 s doubling per attempt.
 */
export function retryDelayMs(retryAfter: string | null, attempt: number, now = Date.now()): number {
  const value = retryAfter?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = value ? Date.parse(value) : Number.NaN;
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return BACKOFF_MS * 2 ** attempt;
}

const wait = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * `send`, retried on 429/503 after the wait the answer asks for, a bounded number of times. Each attempt sends a copy
 * of the request, so its body and headers (its Idempotency-Key: the API replays a write it already did) are the same.
 */
export function retrying(send: Send, options: RetryOptions = {}): Send {
  const retries = options.retries ?? 2;
  const maxDelayMs = (options.maxDelaySeconds ?? 30) * 1000;
  const sleep = options.sleep ?? wait;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (!RETRYABLE.has(response.status) || attempt >= retries) return response;
      const delay = retryDelayMs(response.headers.get("Retry-After"), attempt);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
