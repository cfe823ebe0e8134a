import { createMiddleware } from "hono/factory";
import { queryTextFaults, textFaults } from "@/platform/schemas/well-formed-text";
import { validationFailed } from "@/problems/problem";

/**
 * Refuses text that would not be stored as sent, in any field of any route: NUL, unpaired surrogates, query text that
 * is not UTF-8.
 */
export const requireWellFormedText = createMiddleware(async (c, next) => {
  const query = queryTextFaults(new URL(c.req.url).search);
  if (query.length > 0) throw validationFailed(query, "Invalid query: ");
  if (/^application\/([\w.-]+\+)?json/i.test(c.req.header("content-type") ?? "") && c.req.method !== "GET") {
    let body: unknown;
    try {
      // The text is what stays cached: idempotency hashes it as sent, and the route's validator parses it again.
      body = JSON.parse(await c.req.text());
    } catch {
      return next(); // malformed JSON: the route's validation answers it
    }
    const errors = textFaults(body);
    if (errors.length > 0) throw validationFailed(errors, "Invalid json: ");
  }
  await next();
});
