import { createMiddleware } from "hono/factory";
import { queryTextFaults, textFaults } from "@/platform/schemas/well-formed-text";
import { validationFailed } from "@/problems/problem";

/**
 * Refuses text that would not be stored as sent, in any field of any route: NUL, unpaired surrogates, query text that
 * is not UTF-8.
 */
export const requireWellFormedText = createMiddleware(async (c, next) => {
  const search = searchOf(c.req.url);
  if (search !== "") {
    const query = queryTextFaults(search);
    if (query.length > 0) throw validationFailed(query, "Invalid query: ");
  }
  if (/^application\/([\w.-]+\+)?json/i.test(c.req.header("content-type") ?? "") && c.req.method !== "GET") {
    // The text is what stays cached: idempotency hashes it as sent, and the route's validator parses it.
    const text = await c.req.text();
    // Decoded from UTF-8, the text itself holds no lone surrogate, and a raw NUL is not JSON: only a `\u` escape can
    // put either into a string. Without one there is nothing to find, and no need to parse the body here (issue 36).
    if (!text.includes("\\u")) return next();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return next(); // malformed JSON: the route's validation answers it
    }
    const errors = textFaults(body);
    if (errors.length > 0) throw validationFailed(errors, "Invalid json: ");
  }
  await next();
});

/** The query of a request URL as sent (`?…`, or "" without one), without parsing the URL again. */
function searchOf(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return "";
  const hash = url.indexOf("#", start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}
