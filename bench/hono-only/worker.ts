// The bench's hono-only Worker (issue 36): the framework and nothing of ours. One `OpenAPIHono` with three
// `createRoute`s validating the project's own request schemas (src/features/time-tracking), answering with `c.json`,
// around the frameworkless baseline's handlers (bench/baseline/time-tracking.js: the same statements, the same values,
// the same arithmetic). Between this Worker and the baseline is what hono and zod-openapi cost; between ours and this
// one is our pipeline (middleware, authorisation, sharding, drizzle, the outbox, the rate limit, our handlers).

import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ClockInBody, PunchBody, StaffLocationParams } from "@/wire/punch.schemas";
// @ts-expect-error: plain JS modules shared with the baseline Worker
import { benchCopyEndpoint } from "../baseline/d1-rows.js";
// @ts-expect-error: plain JS modules shared with the baseline Worker
import { recordingEndpoint } from "../baseline/recording.js";
// @ts-expect-error: plain JS modules shared with the baseline Worker
import { clockIn, clockOut, shiftState } from "../baseline/time-tracking.js";
// @ts-expect-error: plain JS module shared by every Worker of the bench
import { benchEntry, tracing } from "../bench-entry.js";

type Env = { Bindings: { DB: D1Database } };
type Handler = (db: D1DatabaseSession, params: object, input: object) => Promise<Response>;

const base = "/api/organizations/{organization_id}/staffmembers/{id}/locations/{location_id}";
const responses = { 200: { description: "OK" } };
const punchRoute = (action: string, schema: typeof ClockInBody | typeof PunchBody) =>
  createRoute({
    method: "post",
    path: `${base}/${action}`,
    request: { params: StaffLocationParams, body: { content: { "application/json": { schema } }, required: true } },
    responses,
  });

/** As the baseline (worker.js): a D1 session from the nearest replica for reads and punches, its bookmark answered. */
async function serve(
  c: Context<Env>,
  handler: Handler,
  params: { organization_id: string; id: string; location_id: string },
  body: unknown,
) {
  const { organization_id, id, location_id } = params;
  const session = c.env.DB.withSession("first-unconstrained");
  const response = await handler(
    session,
    { org: organization_id, staffId: id, locationId: location_id },
    {
      headers: c.req.raw.headers,
      body,
      text: () => c.req.text(),
      path: () => {
        const url = new URL(c.req.url);
        return `${url.pathname}${url.search}`;
      },
      reply: (answer: unknown, status: 200) => c.json(answer as object, status),
    },
  );
  const bookmark = session.getBookmark();
  if (bookmark) response.headers.set("X-D1-Bookmark", bookmark);
  return response;
}

const app = new OpenAPIHono<Env>();
app.get("/api/health", (c) => c.json({ status: "ok" }));
app.openapi(punchRoute("clock-in", ClockInBody), (c) => serve(c, clockIn, c.req.valid("param"), c.req.valid("json")) as never);
app.openapi(punchRoute("clock-out", PunchBody), (c) => serve(c, clockOut, c.req.valid("param"), c.req.valid("json")) as never);
app.openapi(
  createRoute({ method: "get", path: `${base}/shift-state`, request: { params: StaffLocationParams }, responses }),
  (c) => serve(c, shiftState, c.req.valid("param"), undefined) as never,
);
app.onError((error, c) => c.json({ status: 500, error: String(error) }, 500));

export default benchEntry(
  { fetch: app.fetch },
  tracing(async (request: Request, env: Env["Bindings"], ctx: ExecutionContext) =>
    new URL(request.url).pathname.startsWith("/__bench/")
      ? ((await recordingEndpoint(request)) ??
        (await benchCopyEndpoint(request, env.DB)) ??
        new Response("unknown bench endpoint", { status: 404 }))
      : app.fetch(request, env, ctx),
  ),
);
