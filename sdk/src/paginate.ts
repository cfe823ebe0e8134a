import { problemOf, ShiftlineError } from "./errors";
import type { Send } from "./retry";

/** A typed call's answer for a list (a bare JSON array), e.g. `shiftline.GET("/api/organizations/{organization_id}/locations", …)`. */
export interface ListAnswer<T> {
  data?: readonly T[];
  error?: unknown;
  response: Response;
}

/** The target of the `Link: <…>; rel="next"` header (RFC 8288), if any. */
export function nextLink(link: string | null): string | null {
  for (const part of link?.split(",") ?? []) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1]!;
  }
  return null;
}

/**
 * Every item of a list, page after page: the first page is the typed call's answer, each next one the request the
 * answer's `Link: <…>; rel="next"` names (same filters, its cursor), sent with the client's token and retries, until
 * an answer has no next link. An error answer throws a ShiftlineError with the API's problem.
 */
export async function* paginate<T>(first: ListAnswer<T> | Promise<ListAnswer<T>>, send: Send, baseUrl: string): AsyncGenerator<T> {
  let page = await first;
  for (;;) {
    if (!page.data) throw new ShiftlineError(page.response.status, page.error ?? (await problemOf(page.response)));
    yield* page.data;
    const next = nextLink(page.response.headers.get("Link"));
    if (next === null) return;
    const response = await send(new Request(new URL(next, page.response.url || baseUrl), { headers: { Accept: "application/json" } }));
    page = response.ok ? { data: (await response.json()) as readonly T[], response } : { error: await problemOf(response), response };
  }
}
