import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { isJsonMediaType } from "@/platform/http/json-media-type";
import { queryTextFaults, textFaults } from "@/platform/schemas/well-formed-text";
import { badRequest, validationFailed } from "@/problems/problem";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The body as text, refused (400 MALFORMED_JSON) when its bytes are not UTF-8: decoding would replace each bad
 * sequence with U+FFFD, storing text that was never sent. The route then reads the bytes cached here.
 */
async function utf8Body(c: Context): Promise<string> {
  const bytes = await c.req.arrayBuffer();
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest("MALFORMED_JSON", "The request body is not valid UTF-8 (RFC 8259 §8.1: JSON text is UTF-8).");
  }
}

/**
 * Refuses text that would not be stored as sent, in any field of any route: NUL, unpaired surrogates, query text and
 * JSON bodies that are not UTF-8.
 */
export const requireWellFormedText = createMiddleware(async (c, next) => {
  const search = searchOf(c.req.url);
  if (search !== "") {
    const query = queryTextFaults(search);
    if (query.length > 0) throw validationFailed(query, "Invalid query: ");
  }
  if (isJsonMediaType(c.req.header("content-type")) && c.req.method !== "GET") {
    // The bytes are what stays cached: idempotency hashes the text as sent, and the route's validator parses it.
    const text = await utf8Body(c);
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
