import type { Hook } from "@hono/zod-openapi";
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { PatternRouter } from "hono/router/pattern-router";
import type { H, MiddlewareHandler, RouterRoute } from "hono/types";
import { getPath } from "hono/utils/url";
import type { ZodError } from "zod";
import { LATEST_API_VERSION, resolveApiVersion } from "@/domain/api-versions";
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
  "Shiftline-Version",
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
/** A staff sync of up to 50,000 records runs as a job (src/features/staff-members/staff-sync-job.data.ts). */
export const MAX_STAFF_SYNC_BODY_BYTES = 12 * 1024 * 1024;
const STAFF_SYNC_PATH = /^\/api\/organizations\/[^/]+\/staffmembers\/sync$/;

const defaultBodyLimit = limitTo(MAX_BODY_BYTES);
const syncBodyLimit = limitTo(MAX_SYNC_BODY_BYTES);
const staffSyncBodyLimit = limitTo(MAX_STAFF_SYNC_BODY_BYTES);
/** Kiosk photos (POST /api/kiosk/photos): the one body that is not JSON, an image of up to 2 MiB. */
export const RAW_IMAGE_PATH = "/api/kiosk/photos";
const imageBodyLimit = limitTo(MAX_PHOTO_BYTES);
const bodyLimitOf = (path: string) =>
  path === RAW_IMAGE_PATH
    ? imageBodyLimit
    : STAFF_SYNC_PATH.test(path)
      ? staffSyncBodyLimit
      : path.endsWith("/sync")
        ? syncBodyLimit
        : defaultBodyLimit;

const fieldErrors = (error: ZodError) => error.issues.map((issue) => ({ path: issue.path.join(".") || "(root)", message: issue.message }));

/** Every validation failure, of body, query or path, leaves in one shape. */
const defaultHook: Hook<unknown, AppBindings, string, unknown> = (result) => {
  if (result.success) return;
  throw validationFailed(fieldErrors(result.error), `Invalid ${result.target}: `);
};

/**
 * The router of an app that serves requests. A feature's app is built on the feature's first request and matches on
 * that same request, so building its router is part of that request. hono's default tries RegExpRouter first, which
 * compiles every route into one expression on its first match and refuses most features' route sets (a position named
 * differently by two routes), then builds a TrieRouter. PatternRouter (hono's "tiny" preset) keeps one expression per
 * route and tries them in turn: far less to build and compile, a few microseconds a match for a feature's routes.
 * test/node/feature-mounts.test.ts checks that it matches every route as the default does.
 */
const servingRouter = () => new PatternRouter<[H, RouterRoute]>();

/**
 * A feature's router: its routes are copied into the serving app when the feature is mounted, and its own router never
 * matches a request. PatternRouter is the serving app's too (below): the first request to a feature then evaluates
 * no other router's code (hono's default builds a SmartRouter over a RegExpRouter and a TrieRouter per feature).
 */
export const createRouter = () => new OpenAPIHono<AppBindings>({ strict: false, defaultHook, router: servingRouter() });

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
const withCors = cors({ origin: "*", exposeHeaders: [...EXPOSED_HEADERS] });
const EXPOSED = EXPOSED_HEADERS.join(",");
/** What hono's `secureHeaders({ crossOriginResourcePolicy: "cross-origin" })` sets (test/platform/response-headers.test.ts). */
const SECURE_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "cross-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];
const REQUEST_ID_HEADER = "X-Request-Id";
/** hono's requestId rule: a caller's id of up to 255 word characters, `-` or `=` is kept, anything else replaced. */
const UNSAFE_REQUEST_ID = /[^\w\-=]/;
const isApi = (path: string) => path.startsWith("/api/") || path === "/api";

export const VERSION_HEADER = "Shiftline-Version";

function setPlatformHeaders(headers: Headers, requestId: string, api: boolean, version: string) {
  headers.set(REQUEST_ID_HEADER, requestId);
  if (api) {
    headers.set(VERSION_HEADER, version);
    headers.set("Access-Control-Allow-Origin", "*");
    headers.set("Access-Control-Expose-Headers", EXPOSED);
  }
  for (const [name, value] of SECURE_HEADERS) headers.set(name, value);
  headers.delete("X-Powered-By");
}

/**
 * The request id, CORS and the secure headers in one middleware, set once on the response that leaves (issue 36).
 * hono's three (requestId, cors, secureHeaders) did the same in three layers of the chain, and CORS set its headers
 * on a placeholder response before the handler ran, which hono then copied into the handler's response, header by
 * header. Only a preflight goes through hono's cors (it answers it).
 */
const platformHeaders: MiddlewareHandler<AppBindings> = async (c, next) => {
  let requestId = c.req.header(REQUEST_ID_HEADER);
  if (!requestId || requestId.length > 255 || UNSAFE_REQUEST_ID.test(requestId)) requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  const api = isApi(c.req.path);
  if (api && c.req.method === "OPTIONS") {
    const preflight = await withCors(c, next);
    if (preflight) c.res = preflight;
  } else await next();
  const version = c.get("apiVersion") ?? c.get("requestedVersion") ?? LATEST_API_VERSION;
  try {
    setPlatformHeaders(c.res.headers, requestId, api, version);
  } catch {
    // A response whose headers are immutable (a static asset's from ASSETS.fetch): answered as a copy.
    c.res = new Response(c.res.body, c.res);
    setPlatformHeaders(c.res.headers, requestId, api, version);
  }
};

/**
 * A request's body checks and its databases, one layer of the chain: none of the checks has work after the handler,
 * so nesting them changes no refusal (each throws before anything after it runs).
 */
const apiRequest: MiddlewareHandler<AppBindings> = async (c, next) => {
  const path = c.req.path;
  // `…/locations/..` (or `%2e%2e`) reaches here resolved by the URL parser as `…/organizations/{id}/`: answered as
  // the resource above it, it would read or delete the organization. No route here ends in `/` (hono's `c.req.path`
  // drops it: strict is off).
  const sent = getPath(c.req.raw);
  if (sent.endsWith("/")) throw dotSegmentPath(c.req.method, sent);
  const asked = c.req.header(VERSION_HEADER);
  if (asked !== undefined) c.set("requestedVersion", requestedVersion(asked));
  const routed = async () => {
    await database(c, next);
  };
  const wellFormed = async () => {
    await requireWellFormedText(c, routed);
  };
  const checked =
    path === RAW_IMAGE_PATH
      ? wellFormed
      : async () => {
          await requireJsonBody(c, wellFormed);
        };
  await bodyLimitOf(path)(c, checked);
};

function requestedVersion(asked: string): string {
  const version = resolveApiVersion(asked.trim());
  if (version === null) {
    throw badRequest("INVALID_API_VERSION", `${VERSION_HEADER} must be a date (YYYY-MM-DD) on or after the first version.`, [
      { path: VERSION_HEADER, message: "not an API version date" },
    ]);
  }
  return version;
}

const dotSegmentPath = (method: string, path: string) =>
  new ProblemError(
    404,
    "ROUTE_NOT_FOUND",
    `No route for ${method} ${path}: no path here ends in '/'. A path whose last id was '.' or '..' (or %2e) ends so ` +
      "once a URL parser has resolved it; ids are never dot segments.",
  );

export function createApp() {
  const app = new OpenAPIHono<AppBindings>({ strict: false, defaultHook, router: servingRouter() });
  app.use(platformHeaders);
  app.use("/api/*", apiRequest);

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
