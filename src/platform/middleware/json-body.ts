import { createMiddleware } from "hono/factory";
import { isJsonMediaType } from "@/platform/http/json-media-type";
import { ProblemError } from "@/problems/problem";

const hasBody = (req: Request) => {
  const length = req.headers.get("content-length");
  return length !== null ? Number(length) > 0 : req.headers.has("transfer-encoding") || req.body !== null;
};

/**
 * A body on a write must be JSON, in UTF-8 (`isJsonMediaType`): anything else, `charset=utf-16` included, is 415
 * rather than a confusing validation error or text decoded as what it is not.
 */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const method = c.req.method;
  if ((method === "POST" || method === "PUT" || method === "PATCH") && hasBody(c.req.raw)) {
    if (!isJsonMediaType(c.req.header("content-type"))) {
      throw new ProblemError(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "Send request bodies as application/json (or a +json type), in UTF-8: no parameter but an optional charset=utf-8.",
      );
    }
  }
  await next();
});
