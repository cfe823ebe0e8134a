import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./api-types";
import { idempotencyKeys } from "./idempotency";
import { type ListAnswer, paginate } from "./paginate";
import { type RetryOptions, retrying, type Send } from "./retry";

export interface ShiftlineOptions {
  /** The API's origin, e.g. `https://api.shiftline.dev` (the document's `servers`); paths start with `/api`. */
  baseUrl: string;
  /** An access token (`POST /api/auth/exchangeToken`), or a function answering the current one on every request. */
  token?: string | (() => string | Promise<string>);
  /** The fetch to send with (default the global one). */
  fetch?: Send;
  /** Retries on 429 and 503, honouring `Retry-After`. */
  retry?: RetryOptions;
}

export type Shiftline = Client<paths> & {
  /** Every item of a list across its pages, following `Link: rel="next"`: `for await (const x of shiftline.paginate(shiftline.GET(…)))`. */
  paginate<T>(first: ListAnswer<T> | Promise<ListAnswer<T>>): AsyncGenerator<T>;
};

/** Sets `Authorization: Bearer <token>` unless the request names its own (the token exchange names none). */
function authorizing(send: Send, token: ShiftlineOptions["token"]): Send {
  if (token === undefined) return send;
  return async (request) => {
    if (request.headers.has("Authorization")) return send(request);
    const headers = new Headers(request.headers);
    headers.set("Authorization", `Bearer ${typeof token === "function" ? await token() : token}`);
    return send(new Request(request, { headers }));
  };
}

/**
 * A typed client of the Shiftline API (openapi-fetch over the types of the served document): `GET`, `POST`, `PATCH`,
 * `PUT`, `DELETE` by path, each answering `{ data }` or `{ error }` (the API's problem document) with the `response`.
 * Every POST carries an Idempotency-Key; 429 and 503 are retried after their Retry-After.
 */
export function createShiftline(options: ShiftlineOptions): Shiftline {
  const send = retrying(authorizing(options.fetch ?? ((request) => fetch(request)), options.token), options.retry);
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: send });
  client.use(idempotencyKeys);
  return Object.assign(client, { paginate: <T>(first: ListAnswer<T> | Promise<ListAnswer<T>>) => paginate(first, send, options.baseUrl) });
}
