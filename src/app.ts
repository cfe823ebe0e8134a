import { createApp } from "./lib/create-app";
import { DOCUMENT_INTRODUCTION, TAGS } from "./lib/openapi";
import { finalizeDocument } from "./lib/openapi-finalize";
import { authenticate } from "./middleware/auth";
import { organizationDatabase } from "./middleware/db";
import { drainAfterWrites } from "./middleware/drain-outbox";
import { idempotency } from "./middleware/idempotency";
import { apiRateLimit } from "./middleware/rate-limit";
import type { AppOpenAPI } from "./lib/types";
import auth from "./routes/auth/auth.index";
import breakTypes from "./routes/break-types/break-types.index";
import events from "./routes/events/events.index";
import locations from "./routes/locations/locations.index";
import meta from "./routes/meta/meta.index";
import accessRoles from "./routes/access-roles/access-roles.index";
import organizations from "./routes/organizations/organizations.index";
import roles from "./routes/roles/roles.index";
import shiftNotes from "./routes/shift-notes/shift-notes.index";
import timeTracking from "./routes/time-tracking/time-tracking.index";
import timesheets from "./routes/timesheets/timesheets.index";
import policies from "./routes/policies/policies.index";
import timeOffRequests from "./routes/time-off-requests/time-off-requests.index";
import timeOffSettings from "./routes/time-off-settings/time-off-settings.index";
import staffMembers from "./routes/staff-members/staff-members.index";
import schedules from "./routes/schedules/schedules.index";
import openShifts from "./routes/open-shifts/open-shifts.index";
import operator from "./routes/operator/operator.index";
import webhooks from "./routes/webhooks/webhooks.index";

const DOCUMENT = {
  openapi: "3.1.0",
  info: {
    title: "Shiftline API",
    version: "1.0.0",
    description: DOCUMENT_INTRODUCTION,
    contact: { name: "Shiftline API support", url: "https://shiftline.dev/support", email: "api@shiftline.dev" },
    license: { name: "Proprietary", url: "https://shiftline.dev/terms" },
  },
  security: [{ bearerAuth: [] }],
  tags: [...TAGS],
};

/** Public routers first: everything mounted after `authenticate` needs a bearer token (operator: its own secret). */
const publicRouters = [meta, auth, operator];
const protectedRouters: AppOpenAPI[] = [
  organizations, locations, roles, accessRoles, breakTypes, staffMembers, timeTracking, shiftNotes, timesheets,
  policies, timeOffRequests, timeOffSettings, schedules, openShifts, events, webhooks,
];

export function buildApp() {
  const app = createApp();
  for (const router of publicRouters) app.route("/", router);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token from `POST /api/auth/exchangeToken`.",
  });
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get("/api/openapi.json", (c) => {
    document ??= finalizeDocument(app.getOpenAPI31Document(DOCUMENT));
    const { openapi, info, ...rest } = document;
    // The origin answering is the server: generated clients and the docs page talk to whoever serves the document.
    return c.json({ openapi, info, servers: [{ url: new URL(c.req.url).origin, description: "This server" }], ...rest });
  });
  app.use("/api/*", authenticate, apiRateLimit, organizationDatabase, drainAfterWrites, idempotency);
  for (const router of protectedRouters) app.route("/", router);
  return app;
}

export const app = buildApp();
