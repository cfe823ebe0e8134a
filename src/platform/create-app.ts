import type { Hook } from "@hono/zod-openapi";
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { PatternRouter } from "hono/router/pattern-router";
import { secureHeaders } from "hono/secure-headers";
import type { H, RouterRoute } from "hono/types";
import type { ZodError } from "zod";
import { MAX_PHOTO_BYTES } from "@/domain/photo-content";
import type { AppBindings } from "@/platform/http/env";
import { database } from "@/platform/middleware/database";
import { requireJsonBody } from "@/platform/middleware/json-body";
import { requireWellFormedText } from "@/platform/middleware/well-formed-text";
import { badRequest, ProblemError, problemResponse, validationFailed } from "@/problems/problem";

/** Response headers browsers may read: every response header the document declares. */
export const EXPOSED_HEADERS = [
  "Link",
  "X-Request-Id",
  "X-D1-Bookmark",
  "Idempotent-Replayed",
  "Content-Disposition",
  "ETag",
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
] as const;

export const MAX_BODY_BYTES = 256 * 1024;
/** Sync operations take up to 1,000 full records (about 450 KiB), so they get a larger allowance. */
export const MAX_SYNC_BODY_BYTES = 1024 * 1024;

const limitTo = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new ProblemError(413, "PAYLOAD_TOO_LARGE", `Request bodies are limited to ${maxSize} bytes here.`);
    },
  });
const defaultBodyLimit = limitTo(MAX_BODY_BYTES);
const syncBodyLimit = limitTo(MAX_SYNC_BODY_BYTES);
/** Kiosk photos (POST /api/kiosk/photos): the one body that is not JSON, an image of up to 2 MiB. */
export const RAW_IMAGE_PATH = "/api/kiosk/photos";
const imageBodyLimit = limitTo(MAX_PHOTO_BYTES);
const bodyLimitOf = (path: string) =>
  path === RAW_IMAGE_PATH ? imageBodyLimit : path.endsWith("/sync") ? syncBodyLimit : defaultBodyLimit;

const fieldErrors = (error: ZodError) => error.issues.map((issue) => ({ path: issue.path.join(".") || "(root)", message: issue.message }));

/** Every validation failure, of body, query or path, leaves in one shape. */
const defaultHook: Hook<unknown, AppBindings, string, unknown> = (result) => {
  if (result.success) return;
  throw validationFailed(fieldErrors(result.error), `Invalid ${result.target}: `);
};

export const createRouter = () => new OpenAPIHono<AppBindings>({ strict: false, defaultHook });

/**
 * The router of an app that serves requests. A feature's app is built on the feature's first request and matches on
 * that same request, so building its router is part of that request. hono's default tries RegExpRouter first, which
 * compiles every route into one expression on its first match and refuses most features' route sets (a position named
 * differently by two routes), then builds a TrieRouter. PatternRouter (hono's "tiny" preset) keeps one expression per
 * route and tries them in turn: far less to build and compile, a few microseconds a match for a feature's routes.
 * test/node/feature-mounts.test.ts checks that it matches every route as the default does.
 */
const servingRouter = () => new PatternRouter<[H, RouterRoute]>();

function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof HTTPException && error.status === 400) {
    return badRequest("MALFORMED_JSON", "The request body is not valid JSON.");
  }
  if (error instanceof HTTPException && error.status < 500) {
    return new ProblemError(error.status as 400, "HTTP_ERROR", error.message || "Request refused.");
  }
  return new ProblemError(500, "INTERNAL_ERROR", "Something went wrong on our side.");
}

// Built once per isolate, at startup: every app shares them.
const withRequestId = requestId();
const withSecureHeaders = secureHeaders({ crossOriginResourcePolicy: "cross-origin" });
const withCors = cors({ origin: "*", exposeHeaders: [...EXPOSED_HEADERS] });

export function createApp() {
  const app = new OpenAPIHono<AppBindings>({ strict: false, defaultHook, router: servingRouter() });
  app.use(withRequestId);
  app.use(withSecureHeaders);
  app.use("/api/*", withCors);
  app.use("/api/*", (c, next) => bodyLimitOf(c.req.path)(c, next));
  app.use("/api/*", (c, next) => (c.req.path === RAW_IMAGE_PATH ? next() : requireJsonBody(c, next)));
  app.use("/api/*", requireWellFormedText);
  app.use("/api/*", database);

  app.notFound((c) =>
    problemResponse(new ProblemError(404, "ROUTE_NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`), {
      "X-Request-Id": c.get("requestId") ?? "",
    }),
  );
  app.onError((error, c) => {
    const problem = toProblem(error);
    if (problem.status === 500) {
      console.error(JSON.stringify({ requestId: c.get("requestId"), error: String(error), stack: (error as Error).stack }));
      return problemResponse(new ProblemError(500, problem.code, problem.detail, { requestId: c.get("requestId") }), {
        "X-Request-Id": c.get("requestId") ?? "",
      });
    }
    return problemResponse(problem, { "X-Request-Id": c.get("requestId") ?? "" });
  });
  return app;
}
