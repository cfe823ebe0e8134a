// The baseline Worker: a plain `export default { fetch }` with no framework, routing by regular expression to
// hand-written handlers that send our Worker's D1 statements, recorded at the start of the run (recording.js). Another scenario adds its routes by
// exporting `routes` from its own module and listing it below.
import { benchEntry, tracing } from "../bench-entry.js";
import { benchCopyEndpoint } from "./d1-rows.js";
import * as laborCost from "./labor-cost.js";
import * as pay from "./pay.js";
import { recordingEndpoint } from "./recording.js";
import * as scheduleCost from "./schedule-cost.js";
import * as schedules from "./schedules.js";
import * as timeTracking from "./time-tracking.js";
import * as timesheets from "./timesheets.js";

const routes = [
  ...timeTracking.routes,
  ...pay.routes,
  ...timesheets.routes,
  ...schedules.routes,
  ...laborCost.routes,
  ...scheduleCost.routes,
];

async function fetch(request, env) {
  const { pathname } = new URL(request.url);
  if (pathname === "/api/health") return Response.json({ status: "ok" });
  if (pathname.startsWith("/__bench/")) {
    const answer = (await recordingEndpoint(request)) ?? (await benchCopyEndpoint(request, env.DB));
    return answer ?? new Response("unknown bench endpoint", { status: 404 });
  }
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    try {
      // As ours (src/middleware/db.ts): reads and punches start at the nearest replica, other writes at the primary,
      // and the answer carries the session's bookmark.
      const anchor = request.method === "GET" || /\/clock-(in|out)$/.test(pathname) ? "first-unconstrained" : "first-primary";
      const session = env.DB.withSession(anchor);
      const response = await route.handle(session, match, request);
      const bookmark = session.getBookmark();
      if (bookmark) response.headers.set("X-D1-Bookmark", bookmark);
      return response;
    } catch (error) {
      return Response.json({ status: 500, error: String(error) }, { status: 500 });
    }
  }
  return Response.json({ status: 404 }, { status: 404 });
}

// Behind the same door as ours and the hono-only Worker (bench-entry.js); its own fetch serves /__bench/ too.
export default benchEntry({ fetch }, tracing(fetch));
