import { createMiddleware } from "hono/factory";
import { ProblemError } from "@/problems/problem";

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

const hasBody = (req: Request) => {
  const length = req.headers.get("content-length");
  return length !== null ? Number(length) > 0 : req.headers.has("transfer-encoding") || req.body !== null;
};

/** A body on a write must be JSON: anything else is 415 rather than a confusing validation error. */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const method = c.req.method;
  if ((method === "POST" || method === "PUT" || method === "PATCH") && hasBody(c.req.raw)) {
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new ProblemError(415, "UNSUPPORTED_MEDIA_TYPE", "Send request bodies as application/json.");
    }
  }
  await next();
});
