import { Scalar } from "@scalar/hono-api-reference";
import { createRouter } from "@/platform/create-app";
import * as handlers from "./meta.handlers";
import * as routes from "./meta.routes";

/** Served by this Worker's static assets (see `npm run docs:assets`), so the reference renders offline. */
export const DOCS_SCRIPT_PATH = "/api/docs/scalar.js";

export default createRouter()
  .openapi(routes.health, handlers.health)
  // Static assets answer this path before the Worker runs; the route covers runtimes without asset routing.
  .get(DOCS_SCRIPT_PATH, (c) => c.env.ASSETS.fetch(c.req.raw))
  .get(
    "/api/docs",
    Scalar({
      url: "/api/openapi.json",
      cdn: DOCS_SCRIPT_PATH,
      withDefaultFonts: false,
      pageTitle: "Shiftline API",
      // Scalar's hosted services (Ask AI, Generate MCP, Share, Deploy, the hosted client) cannot serve a self-hosted API.
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
      showDeveloperTools: "never",
      telemetry: false,
    }),
  );
